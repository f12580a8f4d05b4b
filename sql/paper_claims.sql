-- paper_claims: the solbehave paper's stated numbers (abstract, §I, §IV-A with Figure 2, §IV-D/E, §V, §VI, §VII) and the SAEFUZZ numbers the vuln views compute, beside this run's: one row per claim, with the paper's value from the versioned sql/paper_claims.csv, the run's value, its 95% interval where one applies, n, the view it comes from, and the reason when this run cannot compute it (an LLM-only number on a run with only the mutant and reference controls, say), never a silent NULL
-- depends: fuzz_results, samples, control_models, contracts, runs, coverage, table7_size, construction_funnel, fig2_size_distribution, sequence_stats, rate_intervals, value_intervals, contract_outcomes, table2_compile, table3_dcr_validation
-- depends: table4_coverage, table5_o1, table6_oracles, fig4_replay, fig4_complementarity, oracle_agreement, dcr_stats, o3_reach, vuln_eval, vuln_ablation
-- columns: id, paper, section, claim, paper_value, run_value, ci_low, ci_high, n, source_view, reason
CREATE OR REPLACE VIEW paper_claims AS
WITH paper AS (
    SELECT * FROM {{paper_claims.csv}}
),
-- Every view read once (DuckDB inlines a view at each reference, and each of these bootstraps).
rate_intervals_ AS MATERIALIZED (SELECT * FROM rate_intervals),
value_intervals_ AS MATERIALIZED (SELECT * FROM value_intervals),
table2_compile_ AS MATERIALIZED (SELECT * FROM table2_compile),
table4_coverage_ AS MATERIALIZED (SELECT * FROM table4_coverage),
table5_o1_ AS MATERIALIZED (SELECT * FROM table5_o1),
table6_oracles_ AS MATERIALIZED (SELECT * FROM table6_oracles),
fig4_replay_ AS MATERIALIZED (SELECT * FROM fig4_replay),
fig4_complementarity_ AS MATERIALIZED (SELECT * FROM fig4_complementarity),
oracle_agreement_ AS MATERIALIZED (SELECT * FROM oracle_agreement),
dcr_stats_ AS MATERIALIZED (SELECT * FROM dcr_stats),
o3_reach_ AS MATERIALIZED (SELECT * FROM o3_reach),
contract_outcomes_ AS MATERIALIZED (SELECT * FROM contract_outcomes),
-- The paper's numbers are over LLM-generated samples; mutant and reference are controls
-- (control_models), reported beside the models and never inside an aggregate over them.
llm_models AS (SELECT DISTINCT model FROM samples WHERE model NOT IN (SELECT model FROM control_models)),
-- A claim naming one model of the paper (paper_claims.csv's model) reads the run's model
-- whose name holds that name, letters, digits and dots only, case aside (Qwen3.6-27B: qwen/qwen3.6-27b).
named AS (SELECT id, lower(regexp_replace(model, '[^A-Za-z0-9.]', '', 'g')) AS key FROM paper WHERE model <> ''),
-- The extractor the DCR and reach claims are read on: the reference extractor
-- (O3's fixed setting; GEMMA-4-31B in the paper), else the first with a graph.
claim_extractor AS (
    SELECT coalesce(
        (SELECT min(model) FROM coverage WHERE oracle = 'O3' AND graph_setting = 'fixed'),
        (SELECT min(extractor) FROM dcr_stats_ WHERE graphs > 0)) AS extractor
),
-- The Algorithm 1 profile of the paper's O3 (paper), else the only one there is.
claim_profile AS (
    SELECT coalesce(max(profile) FILTER (WHERE profile = 'paper'), min(profile)) AS profile FROM table4_coverage_
),
first_run AS (SELECT arg_min(parameters, run_id) AS parameters, arg_min(seed, run_id) AS seed FROM runs),
-- The budgets are run parameters: the first run that records each.
budgets AS (
    SELECT
        CAST(arg_min(parameters->>'o1-calls', run_id) FILTER (WHERE parameters->>'o1-calls' IS NOT NULL) AS DOUBLE) AS o1,
        CAST(arg_min(parameters->>'o2-budget', run_id) FILTER (WHERE parameters->>'o2-budget' IS NOT NULL) AS DOUBLE) AS o2,
        CAST(arg_min(parameters->>'o3-budget', run_id) FILTER (WHERE parameters->>'o3-budget' IS NOT NULL) AS DOUBLE) AS o3
    FROM runs
),
o1_pooled AS (
    SELECT 'solbehave_o1_pooled_functions' AS id,
        CAST(count(*) FILTER (WHERE equivalent) AS DOUBLE) / nullif(count(*), 0) AS run_value,
        NULL::DOUBLE AS ci_low, NULL::DOUBLE AS ci_high, count(*) AS n, 'fuzz_results' AS source_view
    FROM fuzz_results
    WHERE model IN (SELECT model FROM llm_models)
),
-- §V-F a: the share of Table V's N contracts with an all-equivalent sample of some model (the union
-- over the models: Table V's per-model shares average 19.2%, the text's 34% is their union).
o1_pooled_contracts AS (
    SELECT 'solbehave_o1_pooled_contracts' AS id,
        CAST(count(*) FILTER (WHERE hit) AS DOUBLE) / nullif(count(*), 0) AS run_value,
        NULL::DOUBLE AS ci_low, NULL::DOUBLE AS ci_high, count(*) AS n, 'contract_outcomes' AS source_view
    FROM (
        SELECT contract_id, bool_or(hit) AS hit FROM contract_outcomes_
        WHERE measure = 'o1_contract_equivalent' AND model IN (SELECT model FROM llm_models)
        GROUP BY contract_id
    )
),
fuzzable AS (
    SELECT 'solbehave_fuzzable_contracts' AS id, CAST(max(n) AS DOUBLE) AS run_value,
        NULL::DOUBLE AS ci_low, NULL::DOUBLE AS ci_high, max(n) AS n, 'table5_o1' AS source_view
    FROM table5_o1_
),
kept AS (SELECT count(*) AS n FROM contracts WHERE kept),
-- Per LLM model, the divergent share under O2 and under O3 (matched graphs, the paper's profile: the
-- abstract's 13%-44%, §V-D's N and status match and §VII's six models are Figure 4's matched columns).
divergence AS (
    SELECT model, oracle, hit_rate, hit_rate_ci_low, hit_rate_ci_high
    FROM rate_intervals_
    WHERE measure = 'divergent' AND model IN (SELECT model FROM llm_models)
        AND (oracle = 'O2' OR (oracle = 'O3' AND graph_setting = 'matched' AND profile = 'paper'))
),
-- The abstract's range leaves out the model below 3% under both oracles.
below AS (SELECT model FROM divergence GROUP BY model HAVING max(hit_rate) < 0.03),
ranged AS (
    SELECT * FROM divergence WHERE model NOT IN (SELECT model FROM below)
),
-- One value per LLM model and kind: the ranges the paper states. Where one view gives several kinds, the
-- list names the column each kind reads (INCLUDE NULLS: a NULL value is still its model's row).
per_model AS (
    SELECT kind, model, v, lo, hi, 'table2_compile' AS src
    FROM table2_compile_ UNPIVOT INCLUDE NULLS ((v, lo, hi) FOR kind IN (
        (compile_raw_rate, compile_raw_rate_ci_low, compile_raw_rate_ci_high) AS compile_raw,
        (compile_repaired_rate, compile_repaired_rate_ci_low, compile_repaired_rate_ci_high) AS compile_repaired,
        (gain_rate, gain_rate_ci_low, gain_rate_ci_high) AS compile_gain))
    UNION ALL
    SELECT 'compile_relative_gain', model, gain_rate / nullif(compile_raw_rate, 0), NULL, NULL, 'table2_compile' FROM table2_compile_
    UNION ALL
    SELECT lower(oracle) || '_divergent', model, hit_rate, hit_rate_ci_low, hit_rate_ci_high, 'rate_intervals' FROM ranged
    UNION ALL
    -- <oracle>_status_match and <oracle>_n
    SELECT lower(oracle) || '_' || measure, model, v, lo, hi, 'fig4_replay'
    FROM (
        SELECT oracle, model, status_match_rate, status_match_rate_ci_low, status_match_rate_ci_high,
            n, NULL::DOUBLE AS n_ci_low, NULL::DOUBLE AS n_ci_high
        FROM fig4_replay_
        WHERE n > 0 AND (oracle = 'O2' OR (oracle = 'O3' AND graph_setting = 'matched' AND profile = 'paper'))
    ) UNPIVOT INCLUDE NULLS ((v, lo, hi) FOR measure IN (
        (status_match_rate, status_match_rate_ci_low, status_match_rate_ci_high) AS status_match,
        (n, n_ci_low, n_ci_high) AS n))
    UNION ALL
    SELECT 'o3_only_contracts_' || graph_setting, model, o3_only, NULL, NULL, 'fig4_complementarity' FROM fig4_complementarity_
    WHERE profile = 'paper' AND graph_setting IN ('fixed', 'matched')
    UNION ALL
    SELECT 'o1_functions', model, functions_equivalent_rate, NULL, NULL, 'table5_o1' FROM table5_o1_ WHERE pairs > 0
    UNION ALL
    SELECT kind, model, v, lo, hi, 'table6_oracles'
    FROM table6_oracles_ UNPIVOT INCLUDE NULLS ((v, lo, hi) FOR kind IN (
        (o1_only_rate, o1_only_rate_ci_low, o1_only_rate_ci_high) AS table6_o1_only,
        (all_three_rate, all_three_rate_ci_low, all_three_rate_ci_high) AS table6_all_three))
    WHERE profile = (SELECT profile FROM claim_profile) OR profile = ''
),
-- Table IV on each LLM extractor (llm:<model>), the paper's profile.
llm_table4 AS (
    SELECT * FROM table4_coverage_ WHERE extractor LIKE 'llm:%' AND profile = 'paper'
),
-- One value per LLM extractor and kind, beside per_model's.
per_extractor AS (
    SELECT 'o3_coverage' AS kind, extractor AS model, o3_coverage_rate AS v, o3_coverage_rate_ci_low AS lo,
        o3_coverage_rate_ci_high AS hi, 'table4_coverage' AS src
    FROM llm_table4
    UNION ALL
    SELECT kind, extractor, v, NULL, NULL, 'table4_coverage'
    FROM llm_table4 UNPIVOT INCLUDE NULLS (v FOR kind IN (functions_o3_only, functions_o2_only))
    UNION ALL
    -- §I: "on one contract in three; this holds regardless of which model extracts the graph"
    SELECT 'o3_unused_reach', extractor, unused_reach_contract_rate, unused_reach_contract_rate_ci_low, unused_reach_contract_rate_ci_high, 'o3_reach' FROM o3_reach_
    WHERE extractor LIKE 'llm:%' AND profile = 'paper'
),
llm_values AS (
    SELECT * FROM per_model WHERE model IN (SELECT model FROM llm_models)
    UNION ALL
    SELECT * FROM per_extractor
),
ranges AS (
    SELECT 'solbehave_' || kind || '_low' AS id, min(v) AS run_value, arg_min(lo, v) AS ci_low, arg_min(hi, v) AS ci_high, count(v) AS n, any_value(src) AS source_view
    FROM llm_values GROUP BY kind
    UNION ALL
    SELECT 'solbehave_' || kind || '_high' AS id, max(v) AS run_value, arg_max(lo, v) AS ci_low, arg_max(hi, v) AS ci_high, count(v) AS n, any_value(src) AS source_view
    FROM llm_values GROUP BY kind
),
-- §V-B, §V-D b, §V-F a: the paper's rank statements over the LLM models (rank 1 the highest; ties share a rank).
ranked AS (
    SELECT kind, model, v, rank() OVER (PARTITION BY kind ORDER BY v DESC) AS r
    FROM llm_values
    WHERE v IS NOT NULL AND kind IN ('compile_raw', 'compile_repaired', 'o1_functions', 'o2_status_match', 'o3_status_match')
),
-- Each model's rank by Compile@10 after repair beside its rank by another measure.
rank_pairs AS (
    SELECT o.kind, o.model, o.v, o.r, c.r AS compile_rank
    FROM ranked o
    JOIN ranked c ON c.model = o.model AND c.kind = 'compile_repaired'
    WHERE o.kind <> 'compile_repaired'
),
-- Down the Compile@10 ranking, one step per pair of adjacent models: does the status match fall?
match_steps AS (
    SELECT kind, v < lag(v) OVER (PARTITION BY kind ORDER BY compile_rank, model) AS down
    FROM rank_pairs
    WHERE kind IN ('o2_status_match', 'o3_status_match')
),
-- §V-D c: how far the fixed extractor moves each model's O3-only count from its own graphs'.
shifts AS (
    SELECT model, sum(o3_only) FILTER (WHERE graph_setting = 'fixed') - sum(o3_only) FILTER (WHERE graph_setting = 'matched') AS d
    FROM fig4_complementarity_
    WHERE profile = 'paper' AND model IN (SELECT model FROM llm_models)
    GROUP BY model
    HAVING count(*) FILTER (WHERE graph_setting = 'fixed') > 0 AND count(*) FILTER (WHERE graph_setting = 'matched') > 0
),
-- What a claim naming one model reads (§V-D a: Qwen3.6-27B under O3 with matched graphs, Figure 4; §V-E c:
-- Devstral-24B's graphs' O3 coverage, Table IV), per kind and model of the run.
named_values AS (
    SELECT 'o3_flagged' AS kind, model, CAST(divergent AS DOUBLE) AS v, NULL::DOUBLE AS lo, NULL::DOUBLE AS hi, n, 'fig4_replay' AS src
    FROM fig4_replay_ WHERE oracle = 'O3' AND graph_setting = 'matched' AND profile = 'paper' AND n > 0
    UNION ALL
    SELECT kind, model, CAST(CASE kind WHEN 'o2_o3_both' THEN "both" WHEN 'o3_only' THEN o3_only ELSE o2_only END AS DOUBLE), NULL, NULL,
        n_both, 'fig4_complementarity'
    FROM fig4_complementarity_, (VALUES ('o2_o3_both'), ('o3_only'), ('o2_only')) k(kind)
    WHERE graph_setting = 'matched' AND profile = 'paper'
    UNION ALL
    SELECT 'extractor_coverage', extractor, o3_coverage_rate, o3_coverage_rate_ci_low, o3_coverage_rate_ci_high, contracts, 'table4_coverage'
    FROM llm_table4
),
reference_table4 AS (
    SELECT * FROM table4_coverage_
    WHERE extractor = (SELECT extractor FROM claim_extractor) AND profile = (SELECT profile FROM claim_profile)
),
reference_table3 AS (
    SELECT * FROM table3_dcr_validation WHERE extractor = (SELECT extractor FROM claim_extractor)
),
dcr AS (SELECT * FROM dcr_stats_ WHERE extractor = (SELECT extractor FROM claim_extractor)),
reach AS (
    SELECT * FROM o3_reach_
    WHERE extractor = (SELECT extractor FROM claim_extractor) AND profile = (SELECT profile FROM claim_profile)
),
-- SAEFUZZ (vuln_eval): the full detector's row over every class. vuln_eval is to gain a profile
-- column (saefuzz, extended): read through to_json so the filter holds with or without it.
saefuzz AS (
    SELECT * FROM vuln_eval v WHERE class = 'any' AND coalesce(to_json(v)->>'profile', 'saefuzz') = 'saefuzz'
),
no_static AS (
    SELECT * FROM vuln_ablation v WHERE class = 'any' AND ablation = 'no-static' AND coalesce(to_json(v)->>'profile', 'saefuzz') = 'saefuzz'
),
singles AS (
    SELECT 'solbehave_benchmark_contracts' AS id, CAST(n AS DOUBLE) AS run_value, NULL::DOUBLE AS ci_low, NULL::DOUBLE AS ci_high, n, 'contracts' AS source_view FROM kept WHERE n > 0
    UNION ALL
    SELECT 'solbehave_models', CAST(count(*) AS DOUBLE), NULL, NULL, count(*), 'samples' FROM llm_models HAVING count(*) > 0
    UNION ALL
    SELECT 'solbehave_models_below_3pct', CAST((SELECT count(*) FROM below) AS DOUBLE), NULL, NULL, count(DISTINCT model), 'rate_intervals' FROM divergence HAVING count(*) > 0
    UNION ALL
    -- §VII: "for six of the seven models at least one compiling contract in eight diverges under each replay oracle"
    SELECT 'solbehave_models_one_in_eight', CAST(count(*) FILTER (WHERE lowest >= 0.125) AS DOUBLE), NULL, NULL, count(*), 'rate_intervals'
    FROM (SELECT model, min(hit_rate) AS lowest FROM divergence GROUP BY model HAVING count(DISTINCT oracle) = 2) HAVING count(*) > 0
    UNION ALL
    SELECT 'solbehave_repair_keeps_rank', CAST(count(*) FILTER (WHERE r = compile_rank) AS DOUBLE), NULL, NULL, count(*), 'table2_compile'
    FROM rank_pairs WHERE kind = 'compile_raw' HAVING count(*) > 1
    UNION ALL
    SELECT 'solbehave_o1_keeps_compile_rank', CAST(count(*) FILTER (WHERE r = compile_rank) AS DOUBLE), NULL, NULL, count(*), 'table5_o1'
    FROM rank_pairs WHERE kind = 'o1_functions' HAVING count(*) > 1
    UNION ALL
    SELECT 'solbehave_' || left(kind, 2) || '_match_steps_down', CAST(count(*) FILTER (WHERE down) AS DOUBLE), NULL, NULL, count(down), 'fig4_replay'
    FROM match_steps GROUP BY kind HAVING count(down) > 0
    UNION ALL
    SELECT 'solbehave_non_fuzzable_contracts', CAST(k.n - f.n AS DOUBLE), NULL, NULL, k.n, 'table5_o1' FROM kept k, fuzzable f WHERE f.n IS NOT NULL AND k.n >= f.n
    UNION ALL
    SELECT 'solbehave_samples_k', CAST(max(k) AS DOUBLE), NULL, NULL, count(*), 'table2_compile' FROM table2_compile_ HAVING count(*) > 0
    UNION ALL
    SELECT 'solbehave_seed', CAST(seed AS DOUBLE), NULL, NULL, 1, 'runs' FROM first_run WHERE seed IS NOT NULL
    UNION ALL
    -- §V-F b: "O2/O3's fixed 1,000-transaction budget", one number for both: given when the run's agree
    SELECT 'solbehave_replay_budget', coalesce(o2, o3), NULL, NULL, 1, 'runs' FROM budgets WHERE coalesce(o2, o3) IS NOT NULL AND (o2 IS NULL OR o3 IS NULL OR o2 = o3)
    UNION ALL
    SELECT 'solbehave_o1_fuzz_budget', o1, NULL, NULL, 1, 'runs' FROM budgets WHERE o1 IS NOT NULL
    UNION ALL
    -- the models the paper names: a named claim's id ends with the kind it reads, for the run's model of that name
    SELECT n.id, x.v, x.lo, x.hi, x.n, x.src FROM named n
    JOIN named_values x ON n.id LIKE '%\_' || x.kind ESCAPE '\' AND lower(regexp_replace(x.model, '[^A-Za-z0-9.]', '', 'g')) LIKE '%' || n.key || '%'
    UNION ALL
    SELECT 'solbehave_spearman_rho', spearman_rho, spearman_rho_ci_low, spearman_rho_ci_high, models, 'oracle_agreement' FROM oracle_agreement_
    WHERE graph_setting = 'matched' AND profile = 'paper' AND spearman_rho IS NOT NULL
    UNION ALL
    SELECT 'solbehave_o3_only_shift_max', CAST(max(abs(d)) AS DOUBLE), NULL, NULL, count(*), 'fig4_complementarity' FROM shifts HAVING count(*) > 0
    UNION ALL
    SELECT 'solbehave_o3_only_shift_net', CAST(sum(d) AS DOUBLE), NULL, NULL, count(*), 'fig4_complementarity' FROM shifts HAVING count(*) > 0
    UNION ALL
    -- §V-F b: contracts a replay oracle flags and O1 does not, over all models
    SELECT 'solbehave_replay_only_contracts', CAST(sum(o2_only + o3_only + o2_o3) AS DOUBLE), NULL, NULL, CAST(sum(n) AS BIGINT), 'table6_oracles' FROM table6_oracles_
    WHERE model IN (SELECT model FROM llm_models) AND (profile = (SELECT profile FROM claim_profile) OR profile = '') HAVING count(*) > 0
    UNION ALL
    SELECT 'solbehave_o2_coverage', o2_coverage_rate, o2_coverage_rate_ci_low, o2_coverage_rate_ci_high, contracts, 'table4_coverage' FROM reference_table4
    UNION ALL
    SELECT 'solbehave_o3_only_function_share', o3_only_function_rate, o3_only_function_rate_ci_low, o3_only_function_rate_ci_high, functions, 'o3_reach' FROM reach
    UNION ALL
    -- §V-C, Table III: the human validation of the reference extractor's relations
    SELECT 'solbehave_dcr_' || relation || '_precision', precision, NULL, NULL, tp + fp, 'table3_dcr_validation' FROM reference_table3
    WHERE relation IN ('all', 'condition', 'response', 'include', 'exclude') AND tp + fp > 0
    UNION ALL
    SELECT 'solbehave_dcr_' || relation || '_recall', recall, NULL, NULL, tp + fn, 'table3_dcr_validation' FROM reference_table3
    WHERE relation IN ('all', 'response') AND tp + fn > 0
    UNION ALL
    SELECT 'solbehave_dcr_judged_relations', CAST(tp + fp AS DOUBLE), NULL, NULL, tp + fp, 'table3_dcr_validation' FROM reference_table3 WHERE relation = 'all'
    UNION ALL
    -- SAEFUZZ's counts are over its own corpus (11 vulnerable, 189 not): the rates compare, the counts do not
    SELECT 'saefuzz_recall', CAST(tp AS DOUBLE) / (tp + fn), NULL, NULL, tp + fn, 'vuln_eval' FROM saefuzz WHERE tp + fn > 0
    UNION ALL
    SELECT 'saefuzz_false_positive_rate', CAST(fp AS DOUBLE) / (fp + tn), NULL, NULL, fp + tn, 'vuln_eval' FROM saefuzz WHERE fp + tn > 0
    UNION ALL
    SELECT 'saefuzz_mean_instruction_coverage', mean_instruction_coverage, NULL, NULL, contracts, 'vuln_eval' FROM saefuzz WHERE mean_instruction_coverage IS NOT NULL
    UNION ALL
    SELECT 'saefuzz_valid_test_cases', valid_test_case_ratio, NULL, NULL, contracts, 'vuln_eval' FROM saefuzz WHERE valid_test_case_ratio IS NOT NULL
    UNION ALL
    -- §V-D e: O2's and O3's wall seconds per contract (pooled over models; the paper's: on Hardhat)
    SELECT 'solbehave_' || lower(oracle) || '_seconds_per_contract', value, ci_low, ci_high, n, 'contract_costs' FROM value_intervals_
    WHERE measure = 'wall_seconds' AND model = ''
    UNION ALL
    SELECT 'saefuzz_no_static_recall', CAST(tp AS DOUBLE) / (tp + fn), NULL, NULL, tp + fn, 'vuln_ablation' FROM no_static WHERE tp + fn > 0
),
-- Table IV's counts and medians on the reference extractor: one claim per column (solbehave_<claim>), the
-- list naming the column each claim reads. INCLUDE NULLS: a NULL column is still its claim's row.
reference_coverage AS (
    SELECT 'solbehave_' || claim AS id, value AS run_value, NULL::DOUBLE AS ci_low, NULL::DOUBLE AS ci_high, contracts AS n,
        'table4_coverage' AS source_view
    FROM reference_table4 UNPIVOT INCLUDE NULLS (value FOR claim IN (
        functions AS state_changing_functions,
        contracts_o3_gt_o2 AS reference_o3_gt_o2,
        contracts_o3_lt_o2 AS reference_o3_lt_o2,
        contracts_equal AS reference_o3_eq_o2,
        median_o3_coverage_rate AS reference_median_o3_coverage,
        median_o2_coverage_rate AS reference_median_o2_coverage))
),
-- dcr_stats on the reference extractor, one claim per measure with its interval (solbehave_dcr_<claim>).
dcr_claims AS (
    SELECT 'solbehave_dcr_' || claim AS id, value AS run_value, lo AS ci_low, hi AS ci_high, graphs AS n, 'dcr_stats' AS source_view
    FROM dcr UNPIVOT INCLUDE NULLS ((value, lo, hi) FOR claim IN (
        (relations_per_graph, relations_per_graph_ci_low, relations_per_graph_ci_high) AS relations_per_graph,
        (events_per_contract, events_per_contract_ci_low, events_per_contract_ci_high) AS events_per_contract,
        (response_share, response_share_ci_low, response_share_ci_high) AS response_share,
        (ownership_events_per_contract, ownership_events_per_contract_ci_low, ownership_events_per_contract_ci_high) AS ownership_events_per_contract,
        (no_ownership_rate, no_ownership_rate_ci_low, no_ownership_rate_ci_high) AS no_ownership_share))
),
-- §VI, Table VII: a bin's mean, weakest and strongest model and seconds per compiling sample, one id per
-- measure and bin (solbehave_size_<measure>_<bin_low>); the file names the bins the text quotes.
size AS (
    SELECT 'solbehave_size_' || m.measure || '_' || CAST(t.bin_low AS VARCHAR) AS id,
        CASE m.measure WHEN 'compile_mean' THEN t.compile_mean_rate WHEN 'compile_min' THEN t.compile_min_rate
            WHEN 'compile_max' THEN t.compile_max_rate ELSE t.seconds_per_compiling_sample END AS run_value,
        NULL::DOUBLE AS ci_low, NULL::DOUBLE AS ci_high, t.contracts AS n, 'table7_size' AS source_view
    FROM table7_size t, (VALUES ('compile_mean'), ('compile_min'), ('compile_max'), ('seconds')) m(measure)
    WHERE t.model = ''
    UNION ALL
    -- "360 samples per bin and model ... at 26-30, six of the seven compile exactly 20 of 360 samples and the seventh 26"
    SELECT 'solbehave_size_' || m.measure || '_' || CAST(t.bin_low AS VARCHAR),
        CAST(CASE m.measure WHEN 'samples_per_model' THEN t.samples_per_model WHEN 'compiling_min' THEN t.compiling_min
            WHEN 'compiling_max' THEN t.compiling_max ELSE t.models_compiling_min END AS DOUBLE),
        NULL, NULL, t.models, 'table7_size'
    FROM table7_size t, (VALUES ('samples_per_model'), ('compiling_min'), ('compiling_max'), ('models_compiling_min')) m(measure)
    WHERE t.model = ''
),
-- §IV-A, Figure 2: each size bucket's share of the crawled and of the reproducibility-verified contracts
-- (solbehave_fig2_<stage>_<bucket>), a stage with no contract giving none.
fig2 AS (
    SELECT 'solbehave_fig2_' || stage || '_' || replace(replace(size_bucket, '-', '_'), '+', '_plus') AS id, share_rate AS run_value,
        NULL::DOUBLE AS ci_low, NULL::DOUBLE AS ci_high, n, 'fig2_size_distribution' AS source_view
    FROM (SELECT *, sum(contracts) OVER (PARTITION BY stage) AS n FROM fig2_size_distribution)
    WHERE n > 0
),
-- §IV-A: the kept benchmark's sizes (non-trivial functions, the size filter's chain count): Figure 2's
-- caption counts per bucket (37, 40, 173) and the text's median and 75th percentile (16, 18).
kept_sizes AS (
    SELECT contract_id, max(n_nontrivial_functions) AS n, any_value(size_bucket) AS size_bucket FROM contracts WHERE kept GROUP BY contract_id
),
kept_size AS (
    SELECT 'solbehave_kept_bucket_' || replace(replace(size_bucket, '-', '_'), '+', '_plus') AS id, CAST(count(*) AS DOUBLE) AS run_value,
        NULL::DOUBLE AS ci_low, NULL::DOUBLE AS ci_high, count(*) AS n, 'contracts' AS source_view
    FROM kept_sizes GROUP BY size_bucket
    UNION ALL
    SELECT 'solbehave_kept_median_functions', CAST(quantile_cont(n, 0.5) AS DOUBLE), NULL, NULL, count(*), 'contracts' FROM kept_sizes HAVING count(*) > 0
    UNION ALL
    SELECT 'solbehave_kept_p75_functions', CAST(quantile_cont(n, 0.75) AS DOUBLE), NULL, NULL, count(*), 'contracts' FROM kept_sizes HAVING count(*) > 0
),
-- §IV-A: the funnel's contracts per step (solbehave_funnel_<step>; the paper's 8,360 candidates pass the
-- crawl's three filters, its 2,098 the reproducibility check).
funnel AS (
    SELECT 'solbehave_funnel_' || step AS id, CAST(contracts AS DOUBLE) AS run_value, NULL::DOUBLE AS ci_low, NULL::DOUBLE AS ci_high,
        contracts AS n, 'construction_funnel' AS source_view
    FROM construction_funnel WHERE contracts > 0
),
-- §IV-E2, §IV-F: Algorithm 1's calls on the reference extractor's graphs under the claim profile
-- (solbehave_sequences_<column of sequence_stats>).
sequences AS (
    SELECT 'solbehave_sequences_' || key AS id, value AS run_value, NULL::DOUBLE AS ci_low, NULL::DOUBLE AS ci_high, contracts AS n,
        'sequence_stats' AS source_view
    FROM (
        SELECT contracts, CAST(attempted AS DOUBLE) AS attempted, CAST(kept AS DOUBLE) AS kept, CAST(discarded AS DOUBLE) AS discarded,
            CAST(discard_rate AS DOUBLE) AS discard_rate, CAST(median_discard_rate AS DOUBLE) AS median_discard_rate,
            CAST(contracts_above_98 AS DOUBLE) AS contracts_above_98, CAST(contracts_without_sequence AS DOUBLE) AS contracts_without_sequence,
            CAST(contracts - contracts_without_sequence AS DOUBLE) AS contracts_with_sequence, CAST(kept_fallback_rate AS DOUBLE) AS kept_fallback_rate
        FROM sequence_stats
        WHERE extractor = (SELECT extractor FROM claim_extractor) AND profile = (SELECT profile FROM claim_profile)
    ) UNPIVOT (value FOR key IN (attempted, kept, discarded, discard_rate, median_discard_rate, contracts_above_98,
        contracts_without_sequence, contracts_with_sequence, kept_fallback_rate))
),
run AS (
    SELECT * FROM funnel
    UNION ALL
    SELECT * FROM fig2
    UNION ALL
    SELECT * FROM kept_size
    UNION ALL
    SELECT * FROM sequences
    UNION ALL
    SELECT * FROM size
    UNION ALL
    SELECT * FROM o1_pooled
    UNION ALL
    SELECT * FROM o1_pooled_contracts
    UNION ALL
    SELECT * FROM fuzzable
    UNION ALL
    SELECT * FROM ranges
    UNION ALL
    SELECT * FROM singles
    UNION ALL
    SELECT * FROM reference_coverage
    UNION ALL
    SELECT * FROM dcr_claims
)
SELECT
    p.id, p.paper, p.section, p.claim,
    CAST(p.paper_value AS DOUBLE) AS paper_value,
    r.run_value, r.ci_low, r.ci_high,
    coalesce(r.n, 0) AS n,
    coalesce(r.source_view, nullif(p.source_view, '')) AS source_view,
    CASE
        WHEN r.run_value IS NOT NULL THEN NULL
        WHEN p.id = 'solbehave_replay_budget' AND (SELECT o2 <> o3 FROM budgets)
            THEN (SELECT format('O2''s budget (--o2-budget {}) and O3''s T (--o3-budget {}) differ in this run: the sentence gives one budget for both', CAST(o2 AS BIGINT), CAST(o3 AS BIGINT)) FROM budgets)
        WHEN p.id IN ('solbehave_replay_budget', 'solbehave_o1_fuzz_budget') THEN 'no run recorded the budget parameter (the stage did not run)'
        WHEN p.reason <> '' THEN p.reason
        WHEN p.id = 'solbehave_fuzzable_contracts' THEN 'no fuzz_results rows: O1 has not run'
        WHEN p.scope = 'llm' AND NOT EXISTS (SELECT 1 FROM llm_models) THEN 'no LLM-generated samples in this run (mutant and reference are controls, not the models the paper evaluates)'
        WHEN p.scope = 'llm_extractor' AND NOT EXISTS (SELECT 1 FROM table4_coverage_ WHERE extractor LIKE 'llm:%') THEN 'no LLM extractor''s sequences were replayed by O3 in this run (the paper''s ranges are over seven LLM extractors)'
        WHEN p.id = 'solbehave_o1_pooled_functions' THEN 'no LLM-generated sample was fuzzed (O1 has no rows for an LLM model)'
        WHEN p.id LIKE 'solbehave_o_\_divergent%' ESCAPE '\' THEN 'no LLM model was replayed under this oracle, or every one is below 3% under both O2 and O3'
        WHEN p.id LIKE 'saefuzz%' THEN 'vuln_eval / vuln_ablation have no row for the full detector over every class (the vuln stage has not run on a labelled corpus)'
        WHEN p.id LIKE 'solbehave_dcr%' THEN 'no valid DCR graph (or no human annotation, for Table III) for the reference extractor in this run'
        ELSE 'the source view has no row this claim can be read from in this run (the oracle or stage it needs did not run)'
    END AS reason
FROM paper p
LEFT JOIN run r USING (id)
ORDER BY p.id;

COMMENT ON VIEW paper_claims IS 'One row per number the paper states (SolBehave: abstract, §I, §IV-A with Figure 2 and the kept contracts'' sizes, §IV-D/E, §V, §VI with Table VII, §VII; SAEFUZZ: the numbers vuln_eval and vuln_ablation compute). id, paper, section, claim: which number (values in sql/paper_claims.csv, versioned with the views, with its scope and, for a number no view computes, the reason). paper_value: the paper''s (a share as 0..1, a count as a count, percentage points as a share). run_value: this run''s; LLM-scoped claims count LLM-generated samples only (generator not mutant or reference), ranges are the min / max over the LLM models (or LLM extractors) of the named view''s per-model value; the controls (control_models) are never inside an aggregate over the models. O3''s divergence, N, status match, rank and Spearman claims read the matched setting (each model''s own graphs: the Figure 4 columns the sentences quote, 12.6%-43.5%, N 85-174), and each such claim names its setting; DCR, coverage and reach claims are read on the reference extractor (O3''s fixed setting; the paper''s GEMMA-4-31B) under the paper profile. A claim naming one model of the paper (the file''s model column) reads the run''s model whose name holds it; the budgets are the run''s parameters (--o1-calls, --o2-budget, --o3-budget). The file''s compare column says how the paper''s printed value is matched where not to its printed digits (one_in: "one in six" holds when 1 / value rounds to six; unit: within one unit of the printed digit, where the text rounds Figure 4 loosely, 43.48% as 44%, 13.55% as 13%). ci_low, ci_high: the 95% percentile bootstrap interval over contracts (B = 1000, seeded by the run) of the rate that gives the value, for a range the interval of the model at the end; NULL for counts, settings and pooled shares. n: the contracts (or functions, pairs, models) behind the value. source_view: where run_value comes from. reason: why run_value is NULL (never NULL when run_value is).';
