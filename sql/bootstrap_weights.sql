-- bootstrap_weights: dataset helper for the 95% percentile bootstrap over contracts (the unit the solbehave paper samples) behind every *_ci_low / *_ci_high column: for each group size n in contract_outcomes, paired_outcomes and contract_values (and the replayed contracts of oracle_agreement) and each of B = 1000 replicates b, how many times the resample of n contracts drew the i-th contract (contracts indexed 1..n by contract_id). The draws come from hash(hash(seed, n, b, j)), seeded by the first run's seed, so one warehouse always gives the same intervals (DuckDB's setseed and random() are not reproducible across threads); groups of the same size share their draws (model_differences pairs two models by resampling rows that hold both outcomes)
-- depends: contract_outcomes, paired_outcomes, contract_values, runs
-- columns: n, b, i, w
CREATE OR REPLACE VIEW bootstrap_weights AS
WITH
-- Every group size a rate or a paired difference is bootstrapped over.
sizes AS MATERIALIZED (
    SELECT count(*) AS n FROM contract_outcomes GROUP BY measure, oracle, graph_setting, profile, model
    UNION
    SELECT count(*) AS n FROM paired_outcomes GROUP BY measure, oracle, graph_setting, profile, model_a, model_b
    UNION
    SELECT count(*) AS n FROM contract_values GROUP BY measure, oracle, graph_setting, profile, model
    UNION
    -- oracle_agreement resamples every replayed contract at once (one index over them all).
    SELECT count(DISTINCT contract_id) AS n FROM contract_values WHERE measure = 'status_match' AND oracle IN ('O2', 'O3') HAVING count(DISTINCT contract_id) > 0
),
{{bootstrap_resample.cte}}
SELECT n, b, i, w
FROM weights;

COMMENT ON VIEW bootstrap_weights IS 'Bootstrap resamples over contracts: for a group of n contracts (indexed 1..n by contract_id), replicate b (1..1000) draws contract i w times (n draws with replacement; contracts not drawn have no row). Draws: 1 + hash(hash(seed, n, b, j)) mod n for j = 0..n-1, seed the first run''s (runs, 0 when none), so the same warehouse always gives the same resamples. rate_intervals and model_differences take the 2.5th and 97.5th percentiles of a rate over the 1000 replicates (percentile interval).';
