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
pairs AS (
    SELECT o3.graph_setting, o3.profile, o3.model, o2.flagged AS f2, o3.flagged AS f3
    FROM o3
    JOIN o2 USING (model, contract_id)
)
SELECT
    c.model,
    c.graph_setting,
    c.profile,
    (SELECT string_agg(DISTINCT extractor, ',' ORDER BY extractor) FROM o3
        WHERE o3.model = c.model AND o3.graph_setting = c.graph_setting AND o3.profile = c.profile) AS extractor,
    (SELECT count(*) FROM o2 WHERE o2.model = c.model) AS n_o2,
    (SELECT count(*) FROM o3 WHERE o3.model = c.model AND o3.graph_setting = c.graph_setting AND o3.profile = c.profile) AS n_o3,
    count(p.model) AS n_both,
    count(*) FILTER (WHERE p.f2 AND NOT p.f3) AS o2_only,
    count(*) FILTER (WHERE p.f2 AND p.f3) AS both,
    count(*) FILTER (WHERE p.f3 AND NOT p.f2) AS o3_only
FROM cells c
LEFT JOIN pairs p ON p.model = c.model AND p.graph_setting = c.graph_setting AND p.profile = c.profile
GROUP BY c.model, c.graph_setting, c.profile
ORDER BY c.graph_setting, c.profile, c.model;

COMMENT ON VIEW fig4_complementarity IS 'Figure 4(b): per model, O3 graph setting (matched: the model''s own graphs; fixed: the reference extractor''s) and Algorithm 1 profile (paper, the default, or extended; extractor names the graphs'' extractor), over the n_both contracts both O2 and O3 evaluated for the model, the divergent ones (some sample disagrees with the original on the status of some call) split by the oracle that flags them: o2_only, both, o3_only. n_o2 and n_o3 are the contracts each oracle evaluated (O3 needs a validated sequence, so its set is a subset of O2''s). O4 (negative replay) is reported beside, in fig4_replay, and never enters these columns.';
