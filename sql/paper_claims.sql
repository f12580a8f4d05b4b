-- paper_claims: the solbehave paper's stated numbers (abstract, §V) beside this run's: one row per claim, with the paper's value from the versioned sql/paper_claims.csv, the run's value, its 95% interval where one applies, n, the view it comes from, and the reason when this run cannot compute it (an LLM-only number on a run with only the mutant and reference controls, say), never a silent NULL
-- depends: fuzz_results, samples, rate_intervals, table5_o1
-- columns: id, paper, section, claim, paper_value, run_value, ci_low, ci_high, n, source_view, reason
CREATE OR REPLACE VIEW paper_claims AS
WITH paper AS (
    SELECT * FROM {{paper_claims.csv}}
),
-- The paper's numbers are over LLM-generated samples; mutant and reference are controls.
llm_models AS (SELECT DISTINCT model FROM samples WHERE generator NOT IN ('mutant', 'reference')),
o1_pooled AS (
    SELECT 'solbehave_o1_pooled_functions' AS id,
        CAST(count(*) FILTER (WHERE equivalent) AS DOUBLE) / nullif(count(*), 0) AS run_value,
        NULL::DOUBLE AS ci_low, NULL::DOUBLE AS ci_high, count(*) AS n, 'fuzz_results' AS source_view
    FROM fuzz_results
    WHERE model IN (SELECT model FROM llm_models)
),
fuzzable AS (
    SELECT 'solbehave_fuzzable_contracts' AS id, CAST(max(n) AS DOUBLE) AS run_value,
        NULL::DOUBLE AS ci_low, NULL::DOUBLE AS ci_high, max(n) AS n, 'table5_o1' AS source_view
    FROM table5_o1
),
-- Per LLM model, the divergent share under O2 and under O3 (fixed graphs, the paper's profile).
divergence AS (
    SELECT model, oracle, hit_rate, hit_rate_ci_low, hit_rate_ci_high
    FROM rate_intervals
    WHERE measure = 'divergent' AND model IN (SELECT model FROM llm_models)
        AND (oracle = 'O2' OR (oracle = 'O3' AND graph_setting = 'fixed' AND profile = 'paper'))
),
-- The abstract's range leaves out the model below 3% under both oracles.
ranged AS (
    SELECT * FROM divergence
    WHERE model NOT IN (SELECT model FROM divergence GROUP BY model HAVING max(hit_rate) < 0.03)
),
ranges AS (
    SELECT lower(oracle) || '_divergent_low' AS claim_kind, min(hit_rate) AS run_value,
        arg_min(hit_rate_ci_low, hit_rate) AS ci_low, arg_min(hit_rate_ci_high, hit_rate) AS ci_high, count(*) AS n
    FROM ranged GROUP BY oracle
    UNION ALL
    SELECT lower(oracle) || '_divergent_high' AS claim_kind, max(hit_rate) AS run_value,
        arg_max(hit_rate_ci_low, hit_rate) AS ci_low, arg_max(hit_rate_ci_high, hit_rate) AS ci_high, count(*) AS n
    FROM ranged GROUP BY oracle
),
run AS (
    SELECT * FROM o1_pooled
    UNION ALL
    SELECT * FROM fuzzable
    UNION ALL
    SELECT 'solbehave_' || claim_kind AS id, run_value, ci_low, ci_high, n, 'rate_intervals' AS source_view FROM ranges
)
SELECT
    p.id, p.paper, p.section, p.claim,
    CAST(p.paper_value AS DOUBLE) AS paper_value,
    r.run_value, r.ci_low, r.ci_high,
    coalesce(r.n, 0) AS n,
    coalesce(r.source_view, CASE WHEN p.id LIKE '%divergent%' THEN 'rate_intervals' END) AS source_view,
    CASE
        WHEN r.run_value IS NOT NULL THEN NULL
        WHEN p.id = 'solbehave_fuzzable_contracts' THEN 'no fuzz_results rows: O1 has not run'
        WHEN NOT EXISTS (SELECT 1 FROM llm_models) THEN 'no LLM-generated samples in this run (mutant and reference are controls, not the models the paper evaluates)'
        WHEN p.id = 'solbehave_o1_pooled_functions' THEN 'no LLM-generated sample was fuzzed (O1 has no rows for an LLM model)'
        ELSE 'no LLM model was replayed under this oracle, or every one is below 3% under both O2 and O3'
    END AS reason
FROM paper p
LEFT JOIN run r USING (id)
ORDER BY p.id;

COMMENT ON VIEW paper_claims IS 'One row per number the paper states that this run can compute. id, paper, section, claim: which number (values in sql/paper_claims.csv, versioned with the views). paper_value: the paper''s (a share as 0..1, a count as a count). run_value: this run''s, over LLM-generated samples only (generator not mutant or reference), except solbehave_fuzzable_contracts (Table V''s N over every model). ci_low, ci_high: the 95% percentile bootstrap interval over contracts of the model that gives the value (rate_intervals); NULL for counts and the pooled function share. n: the (function, sample) pairs of the pooled share, the models in a range, the contracts of a count. source_view: where run_value comes from. reason: why run_value is NULL (never NULL when run_value is).';
