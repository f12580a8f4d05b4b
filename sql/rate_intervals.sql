-- rate_intervals: dataset helper for the 95% intervals of the solbehave paper's contract rates (Table V's Contracts column, Figure 4's divergent contracts): per measure, oracle setting and model, the share of contracts with a hit in contract_outcomes and its percentile bootstrap interval over contracts (bootstrap_resample.cte: B = 1000, seeded by the run, the draws of bootstrap_weights)
-- depends: contract_outcomes, runs
-- columns: measure, oracle, graph_setting, profile, model, n, hits, hit_rate, hit_rate_ci_low, hit_rate_ci_high
CREATE OR REPLACE VIEW rate_intervals AS
-- A rate is the value of hits over n (den 1): integer sums over n give the same doubles.
WITH per_contract AS (
    SELECT *, CAST(hit AS INTEGER) AS num_exact, 1 AS den_exact FROM contract_outcomes
),
{{bootstrap_intervals.cte}}
SELECT
    measure, oracle, graph_setting, profile, model,
    count(*) AS n,
    count(*) FILTER (WHERE hit) AS hits,
    CAST(count(*) FILTER (WHERE hit) AS DOUBLE) / count(*) AS hit_rate,
    any_value(v.ci_low) AS hit_rate_ci_low,
    any_value(v.ci_high) AS hit_rate_ci_high
FROM indexed
JOIN intervals v USING (measure, oracle, graph_setting, profile, model)
GROUP BY measure, oracle, graph_setting, profile, model
ORDER BY measure, oracle, graph_setting, profile, model;

COMMENT ON VIEW rate_intervals IS 'Per measure (see contract_outcomes), oracle, graph setting, profile and model: n contracts, hits, hit_rate = hits / n (0..1), and its 95% percentile bootstrap interval over contracts (hit_rate_ci_low, hit_rate_ci_high: the 2.5th and 97.5th percentiles of the rate over 1000 resamples of the n contracts with replacement, bootstrap_weights). Contracts are the unit the paper samples from the chain; samples and functions of one contract are not independent.';
