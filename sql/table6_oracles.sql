-- table6_oracles: solbehave paper Table VI, divergent contracts by the combination of oracles (O1, O2, O3 on the reference extractor's graphs) that flag them, per model
-- depends: sample_verdicts
-- columns: model, oracles, n, o1_only, o2_only, o3_only, o1_o2, o1_o3, o2_o3, all_three, none
CREATE OR REPLACE VIEW table6_oracles AS
WITH verdicts AS (
    SELECT oracle, model, contract_id, bool_or(divergent) AS flagged
    FROM sample_verdicts
    WHERE oracle IN ('O1', 'O2') OR (oracle = 'O3' AND graph_setting = 'fixed')
    GROUP BY oracle, model, contract_id
),
o3 AS (
    SELECT count(*) > 0 AS present FROM verdicts WHERE oracle = 'O3'
),
per_contract AS (
    SELECT
        model, contract_id,
        bool_or(flagged) FILTER (WHERE oracle = 'O1') AS o1,
        bool_or(flagged) FILTER (WHERE oracle = 'O2') AS o2,
        bool_or(flagged) FILTER (WHERE oracle = 'O3') AS o3
    FROM verdicts
    GROUP BY model, contract_id
),
evaluated AS (
    SELECT p.model, p.contract_id, p.o1, p.o2, coalesce(p.o3, false) AS o3
    FROM per_contract p
    CROSS JOIN o3
    WHERE p.o1 IS NOT NULL AND p.o2 IS NOT NULL AND (p.o3 IS NOT NULL OR NOT o3.present)
)
SELECT
    e.model,
    CASE WHEN any_value(o3.present) THEN 'O1,O2,O3' ELSE 'O1,O2' END AS oracles,
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
CROSS JOIN o3
GROUP BY e.model
ORDER BY e.model;

COMMENT ON VIEW table6_oracles IS 'Table VI per model: over the n contracts every oracle present evaluated (rows for the model in fuzz_results for O1, in replay_calls for O2 and, with graph_setting fixed, the reference extractor''s graphs, for O3), how many are flagged by exactly which oracles. A contract is flagged by O1 when some fuzzable function is non-equivalent in some compiling sample, by O2 or O3 when some sample disagrees with the original on the status of some call. The seven columns o1_only .. all_three partition the flagged contracts and sum to at most n; none counts the contracts every oracle accepted. oracles names the oracles required: O1,O2,O3 once any O3 (fixed) verdict exists, else O1,O2 (the O3 columns are then 0).';
