-- fig4_complementarity: solbehave paper Figure 4(b), divergent contracts by the replay oracle that flags them (O2 only, both, O3 only), per model, graph setting and Algorithm 1 profile
-- depends: replay_sample_summary
-- columns: model, graph_setting, profile, extractor, n_o2, n_o3, n_both, o2_only, both, o3_only
CREATE OR REPLACE VIEW fig4_complementarity AS
WITH verdicts AS (
    SELECT oracle, graph_setting, profile, model, contract_id,
        string_agg(DISTINCT extractor, ',' ORDER BY extractor) AS extractor,
        bool_or(divergent) AS flagged
    FROM replay_sample_summary
    WHERE oracle IN ('O2', 'O3')
    GROUP BY ALL
),
o2 AS (SELECT model, contract_id, flagged FROM verdicts WHERE oracle = 'O2'),
o3 AS (SELECT graph_setting, profile, extractor, model, contract_id, flagged FROM verdicts WHERE oracle = 'O3'),
cells AS (
    SELECT s.graph_setting, s.profile, m.model
    FROM (SELECT DISTINCT graph_setting, profile FROM o3) s
    CROSS JOIN (SELECT model FROM o2 UNION SELECT model FROM o3) m
),
-- Every contract either oracle evaluated for the cell; f2/f3 are NULL where
-- that oracle never evaluated it (O3 needs a validated sequence, §IV-E2).
units AS (
    SELECT c.graph_setting, c.profile, c.model, o2.contract_id FROM cells c JOIN o2 USING (model)
    UNION
    SELECT graph_setting, profile, model, contract_id FROM o3
),
pairs AS (
    SELECT u.graph_setting, u.profile, u.model, o2.flagged AS f2, o3.flagged AS f3
    FROM units u
    LEFT JOIN o2 ON o2.model = u.model AND o2.contract_id = u.contract_id
    LEFT JOIN o3 ON o3.model = u.model AND o3.graph_setting = u.graph_setting AND o3.profile = u.profile
        AND o3.contract_id = u.contract_id
)
SELECT
    c.model,
    c.graph_setting,
    c.profile,
    (SELECT string_agg(DISTINCT extractor, ',' ORDER BY extractor) FROM o3
        WHERE o3.model = c.model AND o3.graph_setting = c.graph_setting AND o3.profile = c.profile) AS extractor,
    count(p.f2) AS n_o2,
    count(p.f3) AS n_o3,
    count(*) FILTER (WHERE p.f2 IS NOT NULL AND p.f3 IS NOT NULL) AS n_both,
    -- §V-D d: a contract flagged by O2 only may be one O3 never evaluated.
    count(*) FILTER (WHERE p.f2 AND NOT coalesce(p.f3, false)) AS o2_only,
    count(*) FILTER (WHERE p.f2 AND p.f3) AS both,
    count(*) FILTER (WHERE p.f3 AND NOT coalesce(p.f2, false)) AS o3_only
FROM cells c
LEFT JOIN pairs p ON p.model = c.model AND p.graph_setting = c.graph_setting AND p.profile = c.profile
GROUP BY c.model, c.graph_setting, c.profile
ORDER BY c.graph_setting, c.profile, c.model;

COMMENT ON VIEW fig4_complementarity IS 'Figure 4(b): per model, O3 graph setting (matched: the model''s own graphs; fixed: the reference extractor''s) and Algorithm 1 profile (paper, the default, or extended; extractor names the graphs'' extractor), the divergent contracts (some sample disagrees with the original on the status of some call) split by the oracle that flags them, as the paper counts them (§V-D d): o2_only counts every contract O2 flags and O3 does not, including the contracts O3 never evaluated (it needs a validated sequence); both: flagged by both; o3_only: flagged by O3 and not by O2. n_o2 and n_o3 are the contracts each oracle evaluated for the model, n_both those both evaluated. O4 (negative replay) is reported beside, in fig4_replay, and never enters these columns.';
