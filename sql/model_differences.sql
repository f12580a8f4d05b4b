-- model_differences: solbehave paper §V, the comparisons of models behind Table V and Figure 4: for every pair of models and headline rate (O1 contract equivalence over Table V's fixed N, O2 divergence, O3 divergence per graph setting and profile), the difference of the two models' rates over the contracts both were evaluated on, its paired percentile bootstrap 95% interval (the same resampled contracts for both models, B = 1000, seeded by the run; the resamples of bootstrap_weights, drawn here for this view's sizes) and whether the interval excludes 0, so two models a few points apart are not read as different when the run cannot tell them apart
-- depends: paired_outcomes, runs
-- columns: measure, oracle, graph_setting, profile, model_a, model_b, n, a_rate, b_rate
-- columns: difference, difference_ci_low, difference_ci_high, excludes_zero
CREATE OR REPLACE VIEW model_differences AS
WITH indexed AS MATERIALIZED (
    SELECT
        *,
        CAST(hit_a AS INTEGER) - CAST(hit_b AS INTEGER) AS d,
        row_number() OVER (PARTITION BY measure, oracle, graph_setting, profile, model_a, model_b ORDER BY contract_id) AS i,
        count(*) OVER (PARTITION BY measure, oracle, graph_setting, profile, model_a, model_b) AS n
    FROM paired_outcomes
),
sizes AS (SELECT DISTINCT n FROM indexed),
{{bootstrap_resample.cte}},
-- Integer sums: every replicate's difference is exact, whatever order the threads add in.
replicates AS (
    SELECT measure, oracle, graph_setting, profile, model_a, model_b, b, CAST(sum(w * d) AS DOUBLE) / any_value(n) AS difference
    FROM indexed
    JOIN weights USING (n, i)
    GROUP BY measure, oracle, graph_setting, profile, model_a, model_b, b
),
intervals AS (
    SELECT measure, oracle, graph_setting, profile, model_a, model_b,
        quantile_cont(difference, 0.025) AS ci_low,
        quantile_cont(difference, 0.975) AS ci_high
    FROM replicates
    GROUP BY measure, oracle, graph_setting, profile, model_a, model_b
)
SELECT
    measure, oracle, graph_setting, profile, model_a, model_b,
    count(*) AS n,
    CAST(count(*) FILTER (WHERE hit_a) AS DOUBLE) / count(*) AS a_rate,
    CAST(count(*) FILTER (WHERE hit_b) AS DOUBLE) / count(*) AS b_rate,
    CAST(sum(d) AS DOUBLE) / count(*) AS difference,
    any_value(v.ci_low) AS difference_ci_low,
    any_value(v.ci_high) AS difference_ci_high,
    any_value(v.ci_low) > 0 OR any_value(v.ci_high) < 0 AS excludes_zero
FROM indexed
JOIN intervals v USING (measure, oracle, graph_setting, profile, model_a, model_b)
GROUP BY measure, oracle, graph_setting, profile, model_a, model_b
ORDER BY measure, oracle, graph_setting, profile, model_a, model_b;

COMMENT ON VIEW model_differences IS 'Paired model comparisons. Per headline measure (o1_contract_equivalent: Table V''s contracts equivalent under O1; divergent: Figure 4''s divergent contracts under O2, and under O3 per graph setting and profile), pair of models (model_a < model_b): n contracts both were evaluated on, a_rate and b_rate (each model''s share of hits on those n, 0..1), difference = a_rate - b_rate (-1..1, in rate points), its 95% paired percentile bootstrap interval (difference_ci_low, difference_ci_high: the 2.5th and 97.5th percentiles over 1000 resamples of the n contracts, both models on the same resample) and excludes_zero (the interval lies on one side of 0; when false, the run does not distinguish the two models on that rate). A percentile bootstrap is too narrow on few contracts: where every contract gives the same difference (always so when n = 1) the interval has width 0; read small n with care.';
