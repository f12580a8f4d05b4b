-- contract_costs: what each stage cost per contract and model, the original's share included (solbehave paper §V-D e: 19.8 s per contract for O2, 22.1 s for O3)
-- depends: units
-- columns: stage, contract_id, model, units, wall_s, cpu_s
CREATE OR REPLACE VIEW contract_costs AS
WITH per_unit AS (
    SELECT stage, contract_id, model, wall_ms, cpu_ms
    FROM units
    WHERE contract_id <> ''
),
shared AS ( -- units of no one model (the original's replay and coverage): every model of the contract needs them
    SELECT stage, contract_id, count(*) AS n, sum(wall_ms) AS wall_ms, sum(cpu_ms) AS cpu_ms
    FROM per_unit WHERE model = ''
    GROUP BY stage, contract_id
),
own AS (
    SELECT stage, contract_id, model, count(*) AS n, sum(wall_ms) AS wall_ms, sum(cpu_ms) AS cpu_ms
    FROM per_unit WHERE model <> ''
    GROUP BY stage, contract_id, model
)
SELECT o.stage, o.contract_id, o.model,
    o.n + coalesce(s.n, 0) AS units,
    (o.wall_ms + coalesce(s.wall_ms, 0)) / 1000.0 AS wall_s,
    (o.cpu_ms + coalesce(s.cpu_ms, 0)) / 1000.0 AS cpu_s
FROM own o LEFT JOIN shared s USING (stage, contract_id)
UNION ALL
SELECT s.stage, s.contract_id, '' AS model, s.n AS units, s.wall_ms / 1000.0 AS wall_s, s.cpu_ms / 1000.0 AS cpu_s
FROM shared s
WHERE NOT EXISTS (SELECT 1 FROM own o WHERE o.stage = s.stage AND o.contract_id = s.contract_id)
ORDER BY stage, contract_id, model;

COMMENT ON VIEW contract_costs IS 'Per stage, contract and model: the units and their wall and CPU seconds, the units of no one model of that contract and stage (the original''s O2 replay, O3 coverage) added to every model''s, since each model''s verdicts need them; model "" where the stage has no model units on the contract (crawl, verify, skeleton). The paper''s §V-D cost per contract (O2 19.8 s, O3 22.1 s) is the mean of wall_s over a model''s contracts.';
