-- stage_costs: what each stage's current units cost, per model (solbehave paper §V-D e, the cost of the oracles; issue 35)
-- depends: units
-- columns: stage, model, units, failed_units, contracts, wall_s, cpu_s, cpu_s_per_unit, solc_starts, max_jobs
CREATE OR REPLACE VIEW stage_costs AS
SELECT
    stage,
    model,
    count(*) AS units,
    count(*) FILTER (WHERE failed) AS failed_units,
    count(DISTINCT contract_id) FILTER (WHERE contract_id <> '') AS contracts,
    sum(wall_ms) / 1000.0 AS wall_s,
    sum(cpu_ms) / 1000.0 AS cpu_s,
    sum(cpu_ms) / 1000.0 / count(*) AS cpu_s_per_unit,
    sum(solc_starts ORDER BY solc_starts) AS solc_starts,
    max(jobs) AS max_jobs
FROM units
GROUP BY stage, model
ORDER BY stage, model;

COMMENT ON VIEW stage_costs IS 'Per stage and model (model "" for units of no one model: an original''s, a contract''s): the current units, how many failed, the contracts they cover, and their summed wall and CPU seconds (CPU: user + system of the process and its solc workers, each unit''s share when units ran side by side; see units), CPU per unit, and solc worker starts. Every stage''s cost is a query over units; solbehave cost projects a larger evaluation from it.';
