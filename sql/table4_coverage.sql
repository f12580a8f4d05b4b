-- table4_coverage: solbehave paper Table IV, function coverage of O3 per extractor and Algorithm 1 profile against the fixed coverage of O2, over every kept contract
-- depends: table4_contracts, contracts, value_intervals
-- columns: extractor, profile, contracts, o3_evaluated, o2_evaluated, functions, o3_coverage_rate, o2_coverage_rate
-- columns: contracts_o3_gt_o2, contracts_o3_lt_o2, contracts_equal, functions_o3_only, functions_o2_only
-- columns: median_o3_coverage_rate, median_o2_coverage_rate
-- columns: o3_coverage_rate_ci_low, o3_coverage_rate_ci_high, o2_coverage_rate_ci_low, o2_coverage_rate_ci_high
CREATE OR REPLACE VIEW table4_coverage AS
WITH kept AS (
    SELECT contract_id, n_state_changing_abi FROM contracts WHERE kept
),
shares AS (
    SELECT t.*, coalesce(k.n_state_changing_abi, 0) AS abi_functions
    FROM table4_contracts t
    LEFT JOIN kept k USING (contract_id)
),
-- value_intervals once (each reference recomputes the bootstrap), one column per rate.
intervals AS (
    SELECT model AS extractor, profile,
        any_value(ci_low) FILTER (WHERE measure = 'o3_coverage') AS o3_low,
        any_value(ci_high) FILTER (WHERE measure = 'o3_coverage') AS o3_high,
        any_value(ci_low) FILTER (WHERE measure = 'o2_coverage') AS o2_low,
        any_value(ci_high) FILTER (WHERE measure = 'o2_coverage') AS o2_high
    FROM value_intervals
    WHERE measure IN ('o3_coverage', 'o2_coverage')
    GROUP BY model, profile
)
SELECT
    extractor,
    profile,
    count(*) AS contracts,
    count(*) FILTER (WHERE o3_ran) AS o3_evaluated,
    count(*) FILTER (WHERE o2_ran) AS o2_evaluated,
    CAST(sum(abi_functions) AS BIGINT) AS functions,
    avg(o3_share ORDER BY o3_share) AS o3_coverage_rate,
    avg(o2_share ORDER BY o2_share) AS o2_coverage_rate,
    count(*) FILTER (WHERE o3_n > o2_n) AS contracts_o3_gt_o2,
    count(*) FILTER (WHERE o3_n < o2_n) AS contracts_o3_lt_o2,
    count(*) FILTER (WHERE o3_n = o2_n) AS contracts_equal,
    CAST(sum(o3_only) AS BIGINT) AS functions_o3_only,
    CAST(sum(o2_only) AS BIGINT) AS functions_o2_only,
    median(o3_share) AS median_o3_coverage_rate,
    median(o2_share) AS median_o2_coverage_rate,
    any_value(v.o3_low) AS o3_coverage_rate_ci_low,
    any_value(v.o3_high) AS o3_coverage_rate_ci_high,
    any_value(v.o2_low) AS o2_coverage_rate_ci_low,
    any_value(v.o2_high) AS o2_coverage_rate_ci_high
FROM shares s
LEFT JOIN intervals v USING (extractor, profile)
GROUP BY extractor, profile
ORDER BY profile, o3_coverage_rate DESC, extractor;

COMMENT ON VIEW table4_coverage IS 'Table IV per extractor and Algorithm 1 profile (paper, the default, or extended), over every kept contract (contracts; the paper''s mean is over the benchmark). A state-changing function (a coverage row: every non-view function of the original''s ABI) is covered by an oracle when at least one call it replays goes to it; an oracle that never ran on a contract covers none of its functions, and o3_evaluated / o2_evaluated say on how many kept contracts each oracle ran. o3_coverage_rate: mean over the kept contracts of the share of their functions O3''s kept sequences call with that extractor''s graphs (whichever graph setting they served); o2_coverage_rate: the same for O2''s historical transactions, so it is the same on every row. functions: the state-changing functions of every kept contract (contracts.n_state_changing_abi; the paper''s 1,759), those no oracle ran on included. contracts_o3_gt_o2 / _lt_ / contracts_equal compare the numbers of covered functions per kept contract, functions_o3_only / functions_o2_only count functions only one oracle calls, and median_o3_coverage_rate / median_o2_coverage_rate are the two coverages of the median contract (the paper: the mean favours O2, the median O3). All shares are 0..1. o3_coverage_rate_ci_low / _ci_high and o2_coverage_rate_ci_low / _ci_high: the 95% percentile bootstrap intervals of the two means over the kept contracts (value_intervals).';
