-- table4_contracts: dataset helper for solbehave paper Table IV (table4_coverage), O3's reach (o3_reach) and their intervals (contract_values): per extractor, Algorithm 1 profile and kept contract, the state-changing functions and how many of them O3 (that extractor's sequences) and O2 (history) call
-- depends: coverage, contracts
-- columns: extractor, profile, contract_id, o3_ran, o2_ran, functions, o3_n, o2_n, o3_only, o2_only, o3_share, o2_share
CREATE OR REPLACE VIEW table4_contracts AS
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
)
SELECT *,
    CASE WHEN functions > 0 THEN o3_n::DOUBLE / functions ELSE 0 END AS o3_share,
    CASE WHEN functions > 0 THEN o2_n::DOUBLE / functions ELSE 0 END AS o2_share
FROM per_contract;

COMMENT ON VIEW table4_contracts IS 'Per extractor, Algorithm 1 profile (of the O3 coverage rows) and kept contract: o3_ran / o2_ran, whether the oracle has coverage rows there; functions, the contract''s state-changing functions (its coverage rows; 0 when no oracle ran); o3_n / o2_n, how many of them O3 (that extractor''s kept sequences, whichever graph setting) and O2 (history) call at least once; o3_only / o2_only, how many only that oracle calls; o3_share / o2_share, o3_n and o2_n over functions (0 when functions is 0, so an oracle that never ran covers nothing).';
