-- paper_tables: solbehave paper Tables II-VII and Figure 4(a) (both graph settings), every cell as a row beside this run's value: table, row, column, the paper's value (sql/paper_tables.csv), the run's, and its 95% interval where the view that computes the table has one
-- depends: table2_compile, table3_dcr_validation, table4_coverage, table5_o1, table6_oracles, table7_size, fig4_replay
-- columns: ord, table_name, row_name, column_name, paper_value, run_value, ci_low, ci_high, run_model, source_view
CREATE OR REPLACE VIEW paper_tables AS
WITH paper AS (
    SELECT CAST(ord AS INTEGER) AS ord, table_name, row_name, column_name, CAST(paper_value AS DOUBLE) AS paper_value,
        -- the paper's model name as the claims match it: letters, digits and dots only, case aside
        lower(regexp_replace(model, '[^A-Za-z0-9.]', '', 'g')) AS model_key, key
    FROM {{paper_tables.csv}}
),
-- One row per cell the run computes: (table, model or '', key or '', column) and its value.
-- cells(t, c, v, lo, hi) lists a view's columns once; controls are rows too, and no paper model's name holds theirs.
t2 AS (SELECT * FROM table2_compile),
t4 AS (SELECT * FROM table4_coverage WHERE profile = 'paper'),
t5 AS (SELECT * FROM table5_o1),
-- Table VI is the paper profile's (a run without O3 has only profile '')
t6 AS (SELECT * FROM table6_oracles WHERE profile IN ('paper', '')),
f4 AS (
    SELECT *, CASE WHEN oracle = 'O2' THEN 'O2' ELSE 'O3 ' || graph_setting END AS prefix
    FROM fig4_replay WHERE oracle = 'O2' OR (oracle = 'O3' AND graph_setting IN ('matched', 'fixed') AND profile = 'paper')
),
run AS (
    SELECT 'Table II' AS table_name, model, '' AS key, c.column_name, c.v AS run_value, c.lo AS ci_low, c.hi AS ci_high, 'table2_compile' AS source_view
    FROM t2, LATERAL (VALUES ('Raw', compile_raw_rate, compile_raw_rate_ci_low, compile_raw_rate_ci_high),
        ('Repaired', compile_repaired_rate, compile_repaired_rate_ci_low, compile_repaired_rate_ci_high),
        ('Gain', gain_rate, gain_rate_ci_low, gain_rate_ci_high)) c(column_name, v, lo, hi)
    UNION ALL
    SELECT 'Table III', extractor, relation, c.column_name, c.v, NULL, NULL, 'table3_dcr_validation'
    FROM table3_dcr_validation, LATERAL (VALUES ('TP', CAST(tp AS DOUBLE)), ('FP', CAST(fp AS DOUBLE)), ('FN', CAST(fn AS DOUBLE)),
        ('P', precision), ('R', recall), ('F1', f1)) c(column_name, v)
    UNION ALL
    SELECT 'Table IV', extractor, '', c.column_name, c.v, c.lo, c.hi, 'table4_coverage'
    FROM t4, LATERAL (VALUES ('O3 coverage', o3_coverage_rate, o3_coverage_rate_ci_low, o3_coverage_rate_ci_high),
        ('O2 coverage', o2_coverage_rate, o2_coverage_rate_ci_low, o2_coverage_rate_ci_high),
        ('Contracts O3 > O2', CAST(contracts_o3_gt_o2 AS DOUBLE), NULL, NULL),
        ('O3 only', CAST(functions_o3_only AS DOUBLE), NULL, NULL), ('O2 only', CAST(functions_o2_only AS DOUBLE), NULL, NULL)) c(column_name, v, lo, hi)
    UNION ALL
    SELECT 'Table V', model, '', c.column_name, c.v, c.lo, c.hi, 'table5_o1'
    FROM t5, LATERAL (VALUES ('N', CAST(n AS DOUBLE), NULL, NULL), ('Functions', functions_equivalent_rate, NULL, NULL),
        ('Contracts', contracts_equivalent_rate, contracts_equivalent_rate_ci_low, contracts_equivalent_rate_ci_high)) c(column_name, v, lo, hi)
    UNION ALL
    SELECT 'Table VI', model, '', c.column_name, CAST(c.v AS DOUBLE), NULL, NULL, 'table6_oracles'
    FROM t6, LATERAL (VALUES ('N', n), ('O1', o1_only), ('O2', o2_only), ('O3', o3_only), ('O1,O2', o1_o2), ('O1,O3', o1_o3),
        ('O2,O3', o2_o3), ('all', all_three)) c(column_name, v)
    UNION ALL
    -- model '': the row over the LLM models (the controls' rows beside it name their model)
    SELECT 'Table VII', model, functions, c.column_name, c.v, NULL, NULL, 'table7_size'
    FROM table7_size, LATERAL (VALUES ('Mean', compile_mean_rate), ('Min', compile_min_rate), ('Max', compile_max_rate),
        ('s/sample', seconds_per_compiling_sample)) c(column_name, v)
    UNION ALL
    SELECT 'Figure 4(a)', model, '', prefix || ' ' || c.column_name, c.v, c.lo, c.hi, 'fig4_replay'
    FROM f4, LATERAL (VALUES ('N', CAST(n AS DOUBLE), NULL, NULL), ('Status', status_match_rate, status_match_rate_ci_low, status_match_rate_ci_high),
        ('Divergent', CAST(divergent AS DOUBLE), NULL, NULL)) c(column_name, v, lo, hi)
)
-- A paper row naming a model reads the run's model (or llm:<model> extractor) whose name holds it,
-- as paper_claims' model column does; Table VII's rows are its bins (key).
SELECT p.ord, p.table_name, p.row_name, p.column_name, p.paper_value, r.run_value, r.ci_low, r.ci_high, r.model AS run_model, r.source_view
FROM paper p
LEFT JOIN run r ON r.table_name = p.table_name AND r.column_name = p.column_name AND r.key = p.key
    AND CASE WHEN p.model_key = '' THEN r.model = ''
        ELSE lower(regexp_replace(r.model, '[^A-Za-z0-9.]', '', 'g')) LIKE '%' || p.model_key || '%' END
ORDER BY p.ord, r.model;

COMMENT ON VIEW paper_tables IS 'Every cell of the SolBehave paper''s Tables II-VII and Figure 4(a) (O2, O3 on matched graphs, O3 on fixed graphs) beside this run''s: ord (the paper''s order: table, row, column as printed), table_name, row_name (a model; Table III''s relation; Table VII''s bin of functions), column_name (the paper''s header), paper_value (from the versioned sql/paper_tables.csv: a share as 0..1, percentage points as a share, a count as a count, seconds as seconds), run_value (the view that computes the table: table2_compile, table3_dcr_validation, table4_coverage and table6_oracles under the paper profile, table5_o1, table7_size, fig4_replay; NULL where the run has no such model, extractor, relation or bin), ci_low, ci_high (that view''s 95% bootstrap interval: Compile@10, coverage, Table V''s contracts share, status match; NULL for counts), run_model (the run''s model or extractor whose name holds the paper''s, as paper_claims'' model column matches it; Table III is GEMMA-4-31B''s, the reference extractor), source_view.';
