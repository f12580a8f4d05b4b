-- table4_coverage: solbehave paper Table IV, function coverage of O3 per extractor and Algorithm 1 profile against the fixed coverage of O2, over every kept contract
-- depends: coverage, contracts
-- columns: extractor, profile, contracts, o3_evaluated, o2_evaluated, functions, o3_coverage_rate, o2_coverage_rate
-- columns: contracts_o3_gt_o2, contracts_o3_lt_o2, contracts_equal, functions_o3_only, functions_o2_only
-- columns: median_o3_coverage_rate, median_o2_coverage_rate
CREATE OR REPLACE VIEW table4_coverage AS
WITH kept AS (
    SELECT DISTINCT contract_id FROM contracts WHERE kept
),
-- A kept contract's state-changing functions: every coverage row names one,
-- whichever oracle wrote it (each lists the original's whole ABI).
functions AS (
    SELECT DISTINCT contract_id, selector FROM coverage JOIN kept USING (contract_id)
),
o2 AS (
    SELECT contract_id, selector, bool_or(calls > 0) AS covered
    FROM coverage JOIN kept USING (contract_id)
    WHERE oracle = 'O2'
    GROUP BY contract_id, selector
),
-- An extractor's sequences are the same whatever graph setting they served in.
o3 AS (
    SELECT model AS extractor, profile, contract_id, selector, bool_or(calls > 0) AS covered
    FROM coverage JOIN kept USING (contract_id)
    WHERE oracle = 'O3'
    GROUP BY model, profile, contract_id, selector
),
settings AS (SELECT DISTINCT extractor, profile FROM o3),
-- Every kept contract under every setting; an oracle that never ran on a
-- contract covers none of its functions (§V-E: the mean is over the benchmark).
per_contract AS (
    SELECT
        s.extractor, s.profile, k.contract_id,
        bool_or(x.contract_id IS NOT NULL) AS o3_ran,
        bool_or(o.contract_id IS NOT NULL) AS o2_ran,
        count(f.selector) AS functions,
        count(*) FILTER (WHERE x.covered) AS o3_n,
        count(*) FILTER (WHERE o.covered) AS o2_n,
        count(*) FILTER (WHERE x.covered AND NOT coalesce(o.covered, false)) AS o3_only,
        count(*) FILTER (WHERE o.covered AND NOT coalesce(x.covered, false)) AS o2_only
    FROM settings s
    CROSS JOIN kept k
    LEFT JOIN functions f ON f.contract_id = k.contract_id
    LEFT JOIN o3 x ON x.extractor = s.extractor AND x.profile = s.profile AND x.contract_id = k.contract_id AND x.selector = f.selector
    LEFT JOIN o2 o ON o.contract_id = k.contract_id AND o.selector = f.selector
    GROUP BY s.extractor, s.profile, k.contract_id
),
shares AS (
    SELECT *,
        CASE WHEN functions > 0 THEN o3_n::DOUBLE / functions ELSE 0 END AS o3_share,
        CASE WHEN functions > 0 THEN o2_n::DOUBLE / functions ELSE 0 END AS o2_share
    FROM per_contract
)
SELECT
    extractor,
    profile,
    count(*) AS contracts,
    count(*) FILTER (WHERE o3_ran) AS o3_evaluated,
    count(*) FILTER (WHERE o2_ran) AS o2_evaluated,
    CAST(sum(functions) AS BIGINT) AS functions,
    avg(o3_share ORDER BY o3_share) AS o3_coverage_rate,
    avg(o2_share ORDER BY o2_share) AS o2_coverage_rate,
    count(*) FILTER (WHERE o3_n > o2_n) AS contracts_o3_gt_o2,
    count(*) FILTER (WHERE o3_n < o2_n) AS contracts_o3_lt_o2,
    count(*) FILTER (WHERE o3_n = o2_n) AS contracts_equal,
    CAST(sum(o3_only) AS BIGINT) AS functions_o3_only,
    CAST(sum(o2_only) AS BIGINT) AS functions_o2_only,
    median(o3_share) AS median_o3_coverage_rate,
    median(o2_share) AS median_o2_coverage_rate
FROM shares
GROUP BY extractor, profile
ORDER BY profile, o3_coverage_rate DESC, extractor;

COMMENT ON VIEW table4_coverage IS 'Table IV per extractor and Algorithm 1 profile (paper, the default, or extended), over every kept contract (contracts; the paper''s mean is over the benchmark). A state-changing function (a coverage row: every non-view function of the original''s ABI) is covered by an oracle when at least one call it replays goes to it; an oracle that never ran on a contract covers none of its functions, and o3_evaluated / o2_evaluated say on how many kept contracts each oracle ran. o3_coverage_rate: mean over the kept contracts of the share of their functions O3''s kept sequences call with that extractor''s graphs (whichever graph setting they served); o2_coverage_rate: the same for O2''s historical transactions, so it is the same on every row. functions: the state-changing functions of the kept contracts some oracle ran on (a contract no oracle ran on has no coverage rows and counts 0). contracts_o3_gt_o2 / _lt_ / contracts_equal compare the numbers of covered functions per kept contract, functions_o3_only / functions_o2_only count functions only one oracle calls, and median_o3_coverage_rate / median_o2_coverage_rate are the two coverages of the median contract (the paper: the mean favours O2, the median O3). All shares are 0..1.';
