-- oracle_agreement: solbehave paper §V-D(b), Spearman rank correlation between the O2 and O3 status match rates across models, per O3 graph setting and Algorithm 1 profile
-- depends: contract_values, runs, control_models
-- columns: graph_setting, profile, models, spearman_rho, pearson_r, spearman_rho_ci_low, spearman_rho_ci_high
CREATE OR REPLACE VIEW oracle_agreement AS
WITH -- A model's status match rate under an oracle: the mean over its contracts of the
-- contract's mean over samples (fig4_replay.status_match_rate, from contract_values).
rates AS MATERIALIZED (
    SELECT oracle, graph_setting, profile, model, avg(num ORDER BY num) AS rate
    FROM contract_values
    WHERE measure = 'status_match' AND oracle IN ('O2', 'O3') AND model NOT IN (SELECT model FROM control_models)
    GROUP BY oracle, graph_setting, profile, model
),
o2 AS (
    SELECT model, rate AS r2 FROM rates WHERE oracle = 'O2'
),
o3 AS (
    SELECT graph_setting, profile, model, rate AS r3 FROM rates WHERE oracle = 'O3'
),
ranked AS (
    -- average ranks, so tied rates share their rank
    SELECT
        o3.graph_setting, o3.profile, o3.model, o2.r2, o3.r3,
        rank() OVER (PARTITION BY o3.graph_setting, o3.profile ORDER BY o2.r2)
            + (count(*) OVER (PARTITION BY o3.graph_setting, o3.profile, o2.r2) - 1) / 2.0 AS k2,
        rank() OVER (PARTITION BY o3.graph_setting, o3.profile ORDER BY o3.r3)
            + (count(*) OVER (PARTITION BY o3.graph_setting, o3.profile, o3.r3) - 1) / 2.0 AS k3
    FROM o3
    JOIN o2 USING (model)
),
-- The interval: resample the replayed contracts (one index over all of them, so
-- every model and oracle sees the same draw), recompute each model's O2 and O3
-- rates as the weighted mean over its drawn contracts, and rank again.
replayed AS (
    SELECT contract_id, row_number() OVER (ORDER BY contract_id) AS i, count(*) OVER () AS n
    FROM (SELECT DISTINCT contract_id FROM contract_values WHERE measure = 'status_match' AND oracle IN ('O2', 'O3'))
),
sizes AS (SELECT DISTINCT n FROM replayed),
{{bootstrap_resample.cte}},
resampled AS MATERIALIZED (
    SELECT v.oracle, v.graph_setting, v.profile, v.model, w.b, CAST(sum(w.w * CAST(v.num AS DECIMAL(38, 12))) AS DOUBLE) / sum(w.w) AS rate
    FROM contract_values v
    JOIN replayed r USING (contract_id)
    JOIN weights w ON w.n = r.n AND w.i = r.i
    WHERE v.measure = 'status_match' AND v.oracle IN ('O2', 'O3') AND v.model NOT IN (SELECT model FROM control_models)
    GROUP BY v.oracle, v.graph_setting, v.profile, v.model, w.b
),
replicate_ranks AS (
    SELECT x.graph_setting, x.profile, x.b,
        rank() OVER (PARTITION BY x.graph_setting, x.profile, x.b ORDER BY y.rate)
            + (count(*) OVER (PARTITION BY x.graph_setting, x.profile, x.b, y.rate) - 1) / 2.0 AS k2,
        rank() OVER (PARTITION BY x.graph_setting, x.profile, x.b ORDER BY x.rate)
            + (count(*) OVER (PARTITION BY x.graph_setting, x.profile, x.b, x.rate) - 1) / 2.0 AS k3
    FROM resampled x
    JOIN resampled y ON y.oracle = 'O2' AND y.model = x.model AND y.b = x.b
    WHERE x.oracle = 'O3'
),
replicate_rho AS (
    SELECT graph_setting, profile, b,
        CASE WHEN count(*) >= 3 AND stddev_pop(k2 ORDER BY k2) > 0 AND stddev_pop(k3 ORDER BY k3) > 0 THEN corr(k2, k3 ORDER BY k2, k3) END AS rho
    FROM replicate_ranks
    GROUP BY graph_setting, profile, b
),
rho_intervals AS (
    SELECT graph_setting, profile, quantile_cont(rho, 0.025) AS ci_low, quantile_cont(rho, 0.975) AS ci_high
    FROM replicate_rho
    GROUP BY graph_setting, profile
),
agreement AS (
SELECT
    graph_setting,
    profile,
    count(*) AS models,
    -- over two models any correlation is +1 or -1 whatever the rates: not defined below three
    CASE WHEN count(*) >= 3 AND stddev_pop(k2 ORDER BY k2) > 0 AND stddev_pop(k3 ORDER BY k3) > 0 THEN corr(k2, k3 ORDER BY k2, k3) END AS spearman_rho,
    CASE WHEN count(*) >= 3 AND stddev_pop(r2 ORDER BY r2) > 0 AND stddev_pop(r3 ORDER BY r3) > 0 THEN corr(r2, r3 ORDER BY r2, r3) END AS pearson_r
FROM ranked
GROUP BY graph_setting, profile
)
SELECT a.*,
    CASE WHEN a.spearman_rho IS NOT NULL THEN v.ci_low END AS spearman_rho_ci_low,
    CASE WHEN a.spearman_rho IS NOT NULL THEN v.ci_high END AS spearman_rho_ci_high
FROM agreement a
LEFT JOIN rho_intervals v USING (graph_setting, profile)
ORDER BY a.graph_setting, a.profile;

COMMENT ON VIEW oracle_agreement IS 'Per O3 graph setting and Algorithm 1 profile (paper, extended): over the models both O2 and O3 evaluated (the controls of control_models left out), the Spearman rank correlation between their status match rates (fig4_replay.status_match_rate, the mean over contracts of the mean over samples; ties get average ranks) and, for reference, the Pearson correlation of the rates themselves. NULL (not defined) with fewer than three models, where any correlation is +1 or -1, or when one oracle gives every model the same rate. The paper: rho = 0.86. O4 is not part of it. spearman_rho_ci_low / _ci_high: its 95% percentile bootstrap interval over the replayed contracts (B = 1000, bootstrap_weights: each replicate resamples every contract any model was replayed on, recomputes every model''s two rates as the mean over its drawn contracts, and ranks again; replicates where rho is not defined are left out); NULL where spearman_rho is.';
