-- table6_contracts: dataset helper for solbehave paper Table VI (table6_oracles) and its intervals (contract_values): per Algorithm 1 profile of the O3 sequences, model and contract that every oracle present evaluated, which of O1, O2 and O3 (fixed graphs, the reference extractor) flag it
-- depends: sample_verdicts
-- columns: profile, extractor, model, contract_id, o1, o2, o3
CREATE OR REPLACE VIEW table6_contracts AS
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
)
SELECT c.profile, p.extractor, c.model, c.contract_id, c.o1, c.o2, coalesce(c.o3, false) AS o3
FROM per_contract c
JOIN profiles p USING (profile)
WHERE c.o1 IS NOT NULL AND c.o2 IS NOT NULL AND (c.o3 IS NOT NULL OR c.profile = '');

COMMENT ON VIEW table6_contracts IS 'Per Algorithm 1 profile of the O3 sequences (paper, extended; '''' when no O3 verdict exists), model and contract evaluated by every oracle present (O1: fuzz_results; O2; O3 with graph_setting fixed under that profile): o1, o2, o3, whether each flags it (some sample divergent; o3 false under profile ''''). extractor: the reference extractor of the profile''s O3 rows. table6_oracles counts these rows; contract_values turns them into Table VI''s shares for the bootstrap.';
