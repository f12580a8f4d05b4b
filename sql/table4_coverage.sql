-- table4_coverage: solbehave paper Table IV, function coverage of O3 per extractor and Algorithm 1 profile against the fixed coverage of O2
-- depends: coverage
-- columns: extractor, profile, contracts, functions, o3_coverage, o2_coverage, contracts_o3_gt_o2, contracts_o3_lt_o2
-- columns: contracts_equal, functions_o3_only, functions_o2_only, median_o3_coverage, median_o2_coverage
CREATE OR REPLACE VIEW table4_coverage AS
WITH o2 AS (
    SELECT contract_id, selector, bool_or(calls > 0) AS covered
    FROM coverage
    WHERE oracle = 'O2'
    GROUP BY contract_id, selector
),
-- An extractor's sequences are the same whatever graph setting they served in.
o3 AS (
    SELECT model AS extractor, profile, contract_id, selector, bool_or(calls > 0) AS covered
    FROM coverage
    WHERE oracle = 'O3'
    GROUP BY model, profile, contract_id, selector
),
o2_mean AS (
    SELECT avg(share) AS o2_coverage
    FROM (SELECT contract_id, avg(covered::INT) AS share FROM o2 GROUP BY contract_id)
),
o3_mean AS (
    SELECT extractor, profile, avg(share) AS o3_coverage
    FROM (SELECT extractor, profile, contract_id, avg(covered::INT) AS share FROM o3 GROUP BY ALL)
    GROUP BY extractor, profile
),
per_contract AS (
    SELECT
        x.extractor, x.profile, x.contract_id,
        count(*) AS functions,
        count(*) FILTER (WHERE x.covered) AS o3_n,
        count(*) FILTER (WHERE o.covered) AS o2_n,
        count(*) FILTER (WHERE x.covered AND NOT o.covered) AS o3_only,
        count(*) FILTER (WHERE o.covered AND NOT x.covered) AS o2_only
    FROM o3 x
    JOIN o2 o USING (contract_id, selector)
    GROUP BY x.extractor, x.profile, x.contract_id
)
SELECT
    p.extractor,
    p.profile,
    count(*) AS contracts,
    CAST(sum(p.functions) AS BIGINT) AS functions,
    any_value(m.o3_coverage) AS o3_coverage,
    any_value(o2m.o2_coverage) AS o2_coverage,
    count(*) FILTER (WHERE p.o3_n > p.o2_n) AS contracts_o3_gt_o2,
    count(*) FILTER (WHERE p.o3_n < p.o2_n) AS contracts_o3_lt_o2,
    count(*) FILTER (WHERE p.o3_n = p.o2_n) AS contracts_equal,
    CAST(sum(p.o3_only) AS BIGINT) AS functions_o3_only,
    CAST(sum(p.o2_only) AS BIGINT) AS functions_o2_only,
    median(p.o3_n::DOUBLE / p.functions) AS median_o3_coverage,
    median(p.o2_n::DOUBLE / p.functions) AS median_o2_coverage
FROM per_contract p
JOIN o3_mean m USING (extractor, profile)
CROSS JOIN o2_mean o2m
GROUP BY p.extractor, p.profile
ORDER BY p.profile, o3_coverage DESC, p.extractor;

COMMENT ON VIEW table4_coverage IS 'Table IV per extractor and Algorithm 1 profile (paper, the default, or extended). A state-changing function (a coverage row: every non-view function of the original''s ABI) is covered by an oracle when at least one call it replays goes to it. o3_coverage: mean over the contracts O3 ran on of the share of their functions its kept sequences call (with that extractor''s graphs, whichever graph setting they served); o2_coverage: the same for O2''s historical transactions over every contract O2 ran on, so it is the same on every row. Over the contracts both oracles ran on (contracts, functions): contracts_o3_gt_o2 / _lt_ / contracts_equal compare the numbers of covered functions, functions_o3_only / functions_o2_only count functions only one oracle calls, and median_o3_coverage / median_o2_coverage are the two coverages of the median contract (the paper: the mean favours O2, the median O3).';
