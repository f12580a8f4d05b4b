-- oracle_agreement: solbehave paper §V-D(b), Spearman rank correlation between the O2 and O3 status match rates across models, per O3 graph setting and Algorithm 1 profile
-- depends: fig4_replay
-- columns: graph_setting, profile, models, spearman_rho, pearson_r
CREATE OR REPLACE VIEW oracle_agreement AS
WITH o2 AS (
    SELECT model, status_match_rate AS r2 FROM fig4_replay WHERE oracle = 'O2' AND n > 0
),
o3 AS (
    SELECT graph_setting, profile, model, status_match_rate AS r3 FROM fig4_replay WHERE oracle = 'O3' AND n > 0
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
)
SELECT
    graph_setting,
    profile,
    count(*) AS models,
    -- over two models any correlation is +1 or -1 whatever the rates: not defined below three
    CASE WHEN count(*) >= 3 AND stddev_pop(k2 ORDER BY k2) > 0 AND stddev_pop(k3 ORDER BY k3) > 0 THEN corr(k2, k3 ORDER BY k2, k3) END AS spearman_rho,
    CASE WHEN count(*) >= 3 AND stddev_pop(r2 ORDER BY r2) > 0 AND stddev_pop(r3 ORDER BY r3) > 0 THEN corr(r2, r3 ORDER BY r2, r3) END AS pearson_r
FROM ranked
GROUP BY graph_setting, profile
ORDER BY graph_setting, profile;

COMMENT ON VIEW oracle_agreement IS 'Per O3 graph setting and Algorithm 1 profile (paper, extended): over the models both O2 and O3 evaluated, the Spearman rank correlation between their status match rates (fig4_replay.status_match_rate, the mean over contracts of the mean over samples; ties get average ranks) and, for reference, the Pearson correlation of the rates themselves. NULL (not defined) with fewer than three models, where any correlation is +1 or -1, or when one oracle gives every model the same rate. The paper: rho = 0.86. O4 is not part of it.';
