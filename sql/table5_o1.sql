-- table5_o1: solbehave paper Table V, differential fuzzing (O1) per model, over the paper's fixed N: the contracts with a fuzzable function and a compiling sample under any LLM model (244 in the paper; the controls of control_models count only in a run with no LLM model), the same N for every model; a model with no compiling sample on one of them counts as not equivalent there. functions_equivalent_rate is the share of equivalent (function, sample) pairs; contracts_equivalent_rate (the paper's column) is the share of the N contracts with a sample whose every fuzzable function is equivalent; contracts_equivalent_compiling_rate keeps the older per-model figure over only the model's own compiling contracts, which flatters a model that compiles little
-- depends: fuzz_results, samples, rate_intervals, table5_contracts
-- columns: model, n, functions_equivalent_rate, contracts_equivalent_rate, pairs
-- columns: n_compiling, contracts_equivalent_compiling_rate, contracts_equivalent_rate_ci_low, contracts_equivalent_rate_ci_high
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
-- The paper's N (table5_contracts): an LLM model's fuzzable function and compiling sample.
fixed AS (SELECT contract_id FROM table5_contracts),
fixed_n AS (SELECT count(*) AS n FROM fixed),
models AS (SELECT DISTINCT model FROM samples UNION SELECT DISTINCT model FROM fuzz_results),
pairs AS (
    SELECT model, count(*) AS pairs, count(*) FILTER (WHERE equivalent) AS equivalent_pairs
    FROM fuzz_results
    GROUP BY model
),
per_model AS (
    SELECT model, count(*) AS n_compiling, count(*) FILTER (WHERE some_sample_equivalent) AS equivalent_contracts,
        count(*) FILTER (WHERE some_sample_equivalent AND contract_id IN (SELECT contract_id FROM fixed)) AS equivalent_in_n
    FROM per_contract
    GROUP BY model
)
SELECT
    m.model,
    f.n,
    CAST(p.equivalent_pairs AS DOUBLE) / p.pairs AS functions_equivalent_rate,
    CAST(coalesce(c.equivalent_in_n, 0) AS DOUBLE) / nullif(f.n, 0) AS contracts_equivalent_rate,
    coalesce(p.pairs, 0) AS pairs,
    coalesce(c.n_compiling, 0) AS n_compiling,
    CAST(c.equivalent_contracts AS DOUBLE) / c.n_compiling AS contracts_equivalent_compiling_rate,
    r.hit_rate_ci_low AS contracts_equivalent_rate_ci_low,
    r.hit_rate_ci_high AS contracts_equivalent_rate_ci_high
FROM models m
CROSS JOIN fixed_n f
LEFT JOIN pairs p USING (model)
LEFT JOIN per_model c USING (model)
LEFT JOIN rate_intervals r ON r.measure = 'o1_contract_equivalent' AND r.model = m.model
WHERE f.n > 0
ORDER BY m.model;

COMMENT ON VIEW table5_o1 IS 'Table V, O1 per model over the paper''s fixed denominator. n: the contracts with a fuzzable function and a compiling sample under any LLM model (contracts with a row in fuzz_results; the same for every model, the controls'' rows beside the models'' over the same n; the controls of control_models count only in a run with no LLM model). functions_equivalent_rate: share (0..1) of the model''s (function, sample) pairs where the sample''s function is equivalent to the original''s under differential fuzzing (a sample that could not be deployed counts as non-equivalent on every function). contracts_equivalent_rate (the paper''s Contracts column): share of the n contracts on which the model has a sample whose every fuzzable function is equivalent; a contract where the model has no compiling sample counts as not equivalent. pairs: the (function, sample) pairs behind functions_equivalent_rate. n_compiling: the contracts where the model itself has a compiling sample; contracts_equivalent_compiling_rate: the older per-model figure, equivalent contracts over n_compiling (not the paper''s: it flatters a model that compiles little). contracts_equivalent_rate_ci_low / _ci_high: the 95% percentile bootstrap interval of contracts_equivalent_rate over the n contracts (rate_intervals).';
