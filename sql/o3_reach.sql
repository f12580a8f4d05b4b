-- o3_reach: solbehave paper §I, §V-E and §VII, what O3 reaches that history never did, per extractor and Algorithm 1 profile: the share of all state-changing functions that O3 calls and no historical transaction (O2) ever called ("one in six"), and the share of kept contracts where O3 calls an owner-only function history never called ("one contract in three"), each with its 95% percentile bootstrap interval over contracts
-- depends: value_intervals, rate_intervals, coverage
-- columns: extractor, profile, reference, contracts, functions, functions_o3_only, o3_only_function_rate, o3_only_function_rate_ci_low, o3_only_function_rate_ci_high
-- columns: owner_only_contracts, owner_only_contract_rate, owner_only_contract_rate_ci_low, owner_only_contract_rate_ci_high
-- columns: unused_reach_contracts, unused_reach_contract_rate, unused_reach_contract_rate_ci_low, unused_reach_contract_rate_ci_high
CREATE OR REPLACE VIEW o3_reach AS
WITH reference AS (SELECT DISTINCT model AS extractor FROM coverage WHERE oracle = 'O3' AND graph_setting = 'fixed'),
functions AS (
    SELECT model AS extractor, profile, n, CAST(num AS BIGINT) AS functions_o3_only, CAST(den AS BIGINT) AS functions,
        value, ci_low, ci_high
    FROM value_intervals
    WHERE measure = 'o3_only_functions'
),
-- the contracts (hits of rate_intervals) where O3 reaches a function history never called: owner-only in
-- the graph (o3_owner_only_reach), and of any role (o3_unused_reach)
reach AS (
    SELECT measure, model AS extractor, profile, hits, hit_rate, hit_rate_ci_low, hit_rate_ci_high
    FROM rate_intervals
    WHERE measure IN ('o3_owner_only_reach', 'o3_unused_reach')
)
SELECT
    f.extractor,
    f.profile,
    f.extractor IN (SELECT extractor FROM reference) AS reference,
    f.n AS contracts,
    f.functions,
    f.functions_o3_only,
    f.value AS o3_only_function_rate,
    f.ci_low AS o3_only_function_rate_ci_low,
    f.ci_high AS o3_only_function_rate_ci_high,
    coalesce(o.hits, 0) AS owner_only_contracts,
    o.hit_rate AS owner_only_contract_rate,
    o.hit_rate_ci_low AS owner_only_contract_rate_ci_low,
    o.hit_rate_ci_high AS owner_only_contract_rate_ci_high,
    coalesce(u.hits, 0) AS unused_reach_contracts,
    u.hit_rate AS unused_reach_contract_rate,
    u.hit_rate_ci_low AS unused_reach_contract_rate_ci_low,
    u.hit_rate_ci_high AS unused_reach_contract_rate_ci_high
FROM functions f
LEFT JOIN reach o ON o.measure = 'o3_owner_only_reach' AND o.extractor = f.extractor AND o.profile = f.profile
LEFT JOIN reach u ON u.measure = 'o3_unused_reach' AND u.extractor = f.extractor AND u.profile = f.profile
ORDER BY f.profile, f.extractor;

COMMENT ON VIEW o3_reach IS 'Per extractor and Algorithm 1 profile of the O3 sequences, over every kept contract (contracts; table4_contracts): reference, whether O3 replays this extractor''s sequences in the fixed setting. functions: the state-changing functions of the kept contracts (their coverage rows); functions_o3_only: those O3 calls with this extractor''s sequences and no historical transaction (O2) called (Table IV''s O3-only column); o3_only_function_rate: their share (the paper: 246 to 311 of 1,759, "one state-changing function in six"). owner_only_contracts: kept contracts where O3 calls a function the extractor''s graph gives the owner role (dcr_events.role) that no historical transaction called; owner_only_contract_rate: their share of the kept contracts. unused_reach_contracts: kept contracts where O3 calls some function no historical transaction called, whatever its role; unused_reach_contract_rate: their share of the kept contracts (the paper''s "one contract in three", which it says holds whichever model extracts the graph, and whose functions are "typically" owner-only). Both rates carry their 95% percentile bootstrap interval over contracts (_ci_low, _ci_high; value_intervals resamples contracts for the function share, a ratio of totals).';
