-- table6_oracles: solbehave paper Table VI, divergent contracts by the combination of oracles (O1, O2, O3 on the reference extractor's graphs) that flag them, per model and Algorithm 1 profile
-- depends: sample_verdicts
-- columns: model, profile, extractor, oracles, n, o1_only, o2_only, o3_only, o1_o2, o1_o3, o2_o3, all_three, none
CREATE OR REPLACE VIEW table6_oracles AS
WITH verdicts AS (
    SELECT oracle, profile, model, contract_id,
        string_agg(DISTINCT extractor, ',' ORDER BY extractor) AS extractor,
        bool_or(divergent) AS flagged
    FROM sample_verdicts
    WHERE oracle IN ('O1', 'O2') OR (oracle = 'O3' AND graph_setting = 'fixed')
    GROUP BY oracle, profile, model, contract_id
),
-- one table per O3 profile; a single one without O3 (profile '')
profiles AS (
    SELECT profile, string_agg(DISTINCT extractor, ',' ORDER BY extractor) AS extractor
    FROM verdicts WHERE oracle = 'O3' GROUP BY profile
    UNION ALL
    SELECT '', '' WHERE NOT EXISTS (SELECT 1 FROM verdicts WHERE oracle = 'O3')
),
per_contract AS (
    SELECT
        p.profile, v.model, v.contract_id,
        bool_or(v.flagged) FILTER (WHERE v.oracle = 'O1') AS o1,
        bool_or(v.flagged) FILTER (WHERE v.oracle = 'O2') AS o2,
        bool_or(v.flagged) FILTER (WHERE v.oracle = 'O3') AS o3
    FROM profiles p
    JOIN verdicts v ON v.oracle <> 'O3' OR v.profile = p.profile
    GROUP BY p.profile, v.model, v.contract_id
),
evaluated AS (
    SELECT profile, model, contract_id, o1, o2, coalesce(o3, false) AS o3
    FROM per_contract
    WHERE o1 IS NOT NULL AND o2 IS NOT NULL AND (o3 IS NOT NULL OR profile = '')
)
SELECT
    e.model,
    e.profile,
    any_value(p.extractor) AS extractor,
    CASE WHEN e.profile <> '' THEN 'O1,O2,O3' ELSE 'O1,O2' END AS oracles,
    count(*) AS n,
    count(*) FILTER (WHERE o1 AND NOT o2 AND NOT e.o3) AS o1_only,
    count(*) FILTER (WHERE NOT o1 AND o2 AND NOT e.o3) AS o2_only,
    count(*) FILTER (WHERE NOT o1 AND NOT o2 AND e.o3) AS o3_only,
    count(*) FILTER (WHERE o1 AND o2 AND NOT e.o3) AS o1_o2,
    count(*) FILTER (WHERE o1 AND NOT o2 AND e.o3) AS o1_o3,
    count(*) FILTER (WHERE NOT o1 AND o2 AND e.o3) AS o2_o3,
    count(*) FILTER (WHERE o1 AND o2 AND e.o3) AS all_three,
    count(*) FILTER (WHERE NOT o1 AND NOT o2 AND NOT e.o3) AS none
FROM evaluated e
JOIN profiles p USING (profile)
GROUP BY e.model, e.profile
ORDER BY e.profile, e.model;

COMMENT ON VIEW table6_oracles IS 'Table VI per model and Algorithm 1 profile of the O3 sequences (paper, the default, or extended; one table each): over the n contracts every oracle present evaluated (rows for the model in fuzz_results for O1, in replay_calls for O2 and, with graph_setting fixed, the reference extractor''s graphs under that profile, for O3), how many are flagged by exactly which oracles. A contract is flagged by O1 when some fuzzable function is non-equivalent in some compiling sample, by O2 or O3 when some sample disagrees with the original on the status of some call. The seven columns o1_only .. all_three partition the flagged contracts and sum to at most n; none counts the contracts every oracle accepted. extractor: the reference extractor of the O3 rows. oracles names the oracles required: O1,O2,O3 for a profile with O3 (fixed) verdicts; without any, one table per model with profile '''' and O1,O2 (the O3 columns are then 0).';
