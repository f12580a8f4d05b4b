-- table6_oracles: solbehave paper Table VI, divergent contracts by the combination of oracles (O1, O2, O3 on the reference extractor's graphs) that flag them, per model and Algorithm 1 profile
-- depends: table6_contracts, rate_intervals
-- columns: model, profile, extractor, oracles, n, o1_only, o2_only, o3_only, o1_o2, o1_o3, o2_o3, all_three, none
-- columns: o1_only_rate, o1_only_rate_ci_low, o1_only_rate_ci_high, all_three_rate, all_three_rate_ci_low, all_three_rate_ci_high
-- columns: none_rate, none_rate_ci_low, none_rate_ci_high
CREATE OR REPLACE VIEW table6_oracles AS
-- rate_intervals once (each reference recomputes the bootstrap), one column per share.
WITH intervals AS (
    SELECT profile, model,
        any_value(hit_rate_ci_low) FILTER (WHERE measure = 'table6_o1_only') AS o1_only_low,
        any_value(hit_rate_ci_high) FILTER (WHERE measure = 'table6_o1_only') AS o1_only_high,
        any_value(hit_rate_ci_low) FILTER (WHERE measure = 'table6_all_three') AS all_three_low,
        any_value(hit_rate_ci_high) FILTER (WHERE measure = 'table6_all_three') AS all_three_high,
        any_value(hit_rate_ci_low) FILTER (WHERE measure = 'table6_none') AS none_low,
        any_value(hit_rate_ci_high) FILTER (WHERE measure = 'table6_none') AS none_high
    FROM rate_intervals
    WHERE measure IN ('table6_o1_only', 'table6_all_three', 'table6_none')
    GROUP BY profile, model
)
SELECT
    e.model AS model,
    e.profile AS profile,
    any_value(e.extractor) AS extractor,
    CASE WHEN e.profile <> '' THEN 'O1,O2,O3' ELSE 'O1,O2' END AS oracles,
    count(*) AS n,
    count(*) FILTER (WHERE o1 AND NOT o2 AND NOT e.o3) AS o1_only,
    count(*) FILTER (WHERE NOT o1 AND o2 AND NOT e.o3) AS o2_only,
    count(*) FILTER (WHERE NOT o1 AND NOT o2 AND e.o3) AS o3_only,
    count(*) FILTER (WHERE o1 AND o2 AND NOT e.o3) AS o1_o2,
    count(*) FILTER (WHERE o1 AND NOT o2 AND e.o3) AS o1_o3,
    count(*) FILTER (WHERE NOT o1 AND o2 AND e.o3) AS o2_o3,
    count(*) FILTER (WHERE o1 AND o2 AND e.o3) AS all_three,
    count(*) FILTER (WHERE NOT o1 AND NOT o2 AND NOT e.o3) AS none,
    CAST(count(*) FILTER (WHERE o1 AND NOT o2 AND NOT e.o3) AS DOUBLE) / count(*) AS o1_only_rate,
    any_value(v.o1_only_low) AS o1_only_rate_ci_low,
    any_value(v.o1_only_high) AS o1_only_rate_ci_high,
    CAST(count(*) FILTER (WHERE o1 AND o2 AND e.o3) AS DOUBLE) / count(*) AS all_three_rate,
    any_value(v.all_three_low) AS all_three_rate_ci_low,
    any_value(v.all_three_high) AS all_three_rate_ci_high,
    CAST(count(*) FILTER (WHERE NOT o1 AND NOT o2 AND NOT e.o3) AS DOUBLE) / count(*) AS none_rate,
    any_value(v.none_low) AS none_rate_ci_low,
    any_value(v.none_high) AS none_rate_ci_high
FROM table6_contracts e
LEFT JOIN intervals v USING (profile, model)
GROUP BY e.model, e.profile
ORDER BY e.profile, e.model;

COMMENT ON VIEW table6_oracles IS 'Table VI per model and Algorithm 1 profile of the O3 sequences (paper, the default, or extended; one table each): over the n contracts every oracle present evaluated (rows for the model in fuzz_results for O1, in replay_calls for O2 and, with graph_setting fixed, the reference extractor''s graphs under that profile, for O3), how many are flagged by exactly which oracles. A contract is flagged by O1 when some fuzzable function is non-equivalent in some compiling sample, by O2 or O3 when some sample disagrees with the original on the status of some call. The seven columns o1_only .. all_three partition the flagged contracts and sum to at most n; none counts the contracts every oracle accepted. extractor: the reference extractor of the O3 rows. oracles names the oracles required: O1,O2,O3 for a profile with O3 (fixed) verdicts; without any, one table per model with profile '''' and O1,O2 (the O3 columns are then 0). o1_only_rate, all_three_rate, none_rate: o1_only, all_three and none over n (the paper''s 38%–69% and 1.2%–30.8% of N), each with its 95% percentile bootstrap interval over the n contracts (_ci_low, _ci_high; rate_intervals).';
