-- table7_size: solbehave paper Table VII (§VI-b), Compile@k after repair and generation cost by contract size (the size ablation)
-- depends: samples, contracts, llm_calls, control_models
-- columns: model, functions, bin_low, contracts, models, samples, compile_mean_rate, compile_min_rate, compile_max_rate, seconds_per_compiling_sample
-- columns: samples_per_model, compiling_min, compiling_max, models_compiling_min
CREATE OR REPLACE VIEW table7_size AS
WITH model_time AS (
    -- an LLM sample's seconds are the model's own: the latency of its
    -- uncached generate and repair calls, not the sample's wall time (which
    -- counts the wait for a concurrency slot behind other samples)
    SELECT contract_id, model, sample, coalesce(sum(latency_ms) FILTER (WHERE NOT cached), 0) AS ms
    FROM llm_calls
    WHERE purpose IN ('generate', 'repair')
    GROUP BY contract_id, model, sample
),
sized AS (
    -- every compiling original with 1-40 non-trivial functions, kept or in
    -- the size ablation only (samples.ablation): the ablation needs only
    -- compilation; the size is the size filter's chain count (contracts.n_nontrivial_functions)
    SELECT
        s.model,
        -- the row a sample counts in: '' (over the models) or its control's own row
        CASE WHEN s.model IN (SELECT model FROM control_models) THEN s.model ELSE '' END AS grp,
        s.contract_id,
        c.n_nontrivial_functions AS n,
        s.compiled_repaired,
        coalesce(t.ms, coalesce(s.generation_ms, 0) + coalesce(s.repair_ms, 0)) AS ms
    FROM samples s
    JOIN (SELECT contract_id, max(n_nontrivial_functions) AS n_nontrivial_functions FROM contracts GROUP BY contract_id) c
        USING (contract_id)
    LEFT JOIN model_time t USING (contract_id, model, sample)
    WHERE c.n_nontrivial_functions BETWEEN 1 AND 40
),
binned AS (
    SELECT *, CAST((n - 1) // 5 AS BIGINT) AS bin FROM sized
),
per_contract AS (
    SELECT bin, grp, model, contract_id,
        avg(CASE WHEN compiled_repaired THEN 1.0 ELSE 0.0 END ORDER BY compiled_repaired) AS compile_repaired,
        count(*) AS samples, count(*) FILTER (WHERE compiled_repaired) AS compiling
    FROM binned
    GROUP BY bin, grp, model, contract_id
),
per_model AS (
    SELECT bin, grp, model, avg(compile_repaired ORDER BY compile_repaired) AS compile_repaired, count(*) AS contracts,
        sum(samples) AS samples, sum(compiling) AS compiling,
        min(sum(compiling)) OVER (PARTITION BY bin, grp) AS bin_compiling_min
    FROM per_contract
    GROUP BY bin, grp, model
),
cost AS (
    SELECT bin, grp,
        sum(ms) / 1000.0 AS seconds,
        count(*) FILTER (WHERE compiled_repaired) AS compiling,
        count(*) AS samples
    FROM binned
    GROUP BY bin, grp
)
SELECT
    p.grp AS model,
    CAST(5 * p.bin + 1 AS VARCHAR) || '-' || CAST(5 * p.bin + 5 AS VARCHAR) AS functions,
    5 * p.bin + 1 AS bin_low,
    max(p.contracts) AS contracts,
    count(*) AS models,
    any_value(c.samples) AS samples,
    round(avg(p.compile_repaired ORDER BY p.compile_repaired), 4) AS compile_mean_rate,
    round(min(p.compile_repaired), 4) AS compile_min_rate,
    round(max(p.compile_repaired), 4) AS compile_max_rate,
    round(any_value(c.seconds) / nullif(any_value(c.compiling), 0), 3) AS seconds_per_compiling_sample,
    CAST(max(p.samples) AS BIGINT) AS samples_per_model,
    CAST(min(p.compiling) AS BIGINT) AS compiling_min,
    CAST(max(p.compiling) AS BIGINT) AS compiling_max,
    count(*) FILTER (WHERE p.compiling = p.bin_compiling_min) AS models_compiling_min
FROM per_model p
JOIN cost c USING (bin, grp)
GROUP BY p.bin, p.grp
ORDER BY p.grp, p.bin;

COMMENT ON VIEW table7_size IS 'Size ablation, per bin of non-trivial functions (contracts.n_nontrivial_functions, the chain count the size filter uses: 1-5, ..., 36-40): contracts, models and samples, mean Compile@k after repair over models with its min-max range across models (0-1), and seconds of generation (repairs included) per compiling sample: the latency of a sample''s uncached generate and repair calls (llm_calls), not its wall time, which counts the wait for a concurrency slot. model: '''' on the row over the LLM models (the paper''s seven); each control (control_models: mutant, reference) has rows of its own beside them (model its name, models 1) and never enters the models'' row. samples_per_model: the most samples one model has in the bin (the paper''s 360 per bin and model); compiling_min, compiling_max: the fewest and most compiling samples of one model; models_compiling_min: the models that compile exactly compiling_min (§VI: at 26-30 six of the seven compile 20 of 360, the seventh 26). Kept contracts and, with --size-ablation, every other contract whose original compiles (samples.ablation) enter; no other view reads the ablation rows. Paper Table VII.';
