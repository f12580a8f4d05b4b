-- table5_o1: solbehave paper Table V, differential fuzzing (O1) per model: over the contracts with a compiling sample and a fuzzable function, the share of equivalent (function, sample) pairs and of contracts with a sample whose every fuzzable function is equivalent
-- depends: fuzz_results
-- columns: model, n, functions_equivalent_rate, contracts_equivalent_rate, pairs
CREATE OR REPLACE VIEW table5_o1 AS
WITH per_sample AS (
    SELECT model, contract_id, sample, bool_and(equivalent) AS all_equivalent
    FROM fuzz_results
    GROUP BY model, contract_id, sample
),
per_contract AS (
    SELECT model, contract_id, bool_or(all_equivalent) AS some_sample_equivalent
    FROM per_sample
    GROUP BY model, contract_id
),
pairs AS (
    SELECT model, count(*) AS pairs, count(*) FILTER (WHERE equivalent) AS equivalent_pairs
    FROM fuzz_results
    GROUP BY model
)
SELECT
    c.model,
    count(*) AS n,
    CAST(any_value(p.equivalent_pairs) AS DOUBLE) / any_value(p.pairs) AS functions_equivalent_rate,
    CAST(count(*) FILTER (WHERE c.some_sample_equivalent) AS DOUBLE) / count(*) AS contracts_equivalent_rate,
    any_value(p.pairs) AS pairs
FROM per_contract c
JOIN pairs p USING (model)
GROUP BY c.model
ORDER BY c.model;

COMMENT ON VIEW table5_o1 IS 'Table V, O1 per model. n: contracts with a compiling sample and a fuzzable function (rows in fuzz_results). functions_equivalent_rate: share (0..1) of (function, sample) pairs where the sample''s function is equivalent to the original''s under differential fuzzing (a sample that could not be deployed counts as non-equivalent on every function). contracts_equivalent_rate: share of the n contracts with at least one sample whose every fuzzable function is equivalent. pairs: the (function, sample) pairs behind functions_equivalent_rate.';
