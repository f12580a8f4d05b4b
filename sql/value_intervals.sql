-- value_intervals: dataset helper for the 95% intervals of the solbehave paper's means and ratios over contracts (Table II's Compile@k, Table IV's coverage, O3's reach, the DCR graph statistics): per measure, oracle setting and model, sum(num) / sum(den) over the contracts in contract_values and its percentile bootstrap interval over contracts (bootstrap_resample.cte: B = 1000, seeded by the run, the draws of bootstrap_weights)
-- depends: contract_values, runs
-- columns: measure, oracle, graph_setting, profile, model, n, num, den, value, ci_low, ci_high
CREATE OR REPLACE VIEW value_intervals AS
-- Exact sums (DECIMAL, 12 places).
WITH per_contract AS (
    SELECT *, CAST(num AS DECIMAL(38, 12)) AS num_exact, CAST(den AS DECIMAL(38, 12)) AS den_exact FROM contract_values
),
{{bootstrap_intervals.cte}}
SELECT
    measure, oracle, graph_setting, profile, model,
    count(*) AS n,
    sum(num ORDER BY contract_id) AS num,
    sum(den ORDER BY contract_id) AS den,
    sum(num ORDER BY contract_id) / nullif(sum(den ORDER BY contract_id), 0) AS value,
    any_value(v.ci_low) AS ci_low,
    any_value(v.ci_high) AS ci_high
FROM indexed
LEFT JOIN intervals v USING (measure, oracle, graph_setting, profile, model)
GROUP BY measure, oracle, graph_setting, profile, model
ORDER BY measure, oracle, graph_setting, profile, model;

COMMENT ON VIEW value_intervals IS 'Per measure (see contract_values), oracle, graph setting, profile and model: n contracts, num and den summed over them, value = num / den (NULL when den is 0), and its 95% percentile bootstrap interval over contracts (ci_low, ci_high: the 2.5th and 97.5th percentiles of sum(w num) / sum(w den) over 1000 resamples of the n contracts with replacement, bootstrap_weights; a replicate whose den sums to 0 is left out). For den 1 the value is the mean over contracts; for counts it is a ratio of totals (the share of all functions, of all relations) resampled by contract, the unit the paper samples.';
