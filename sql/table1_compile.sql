-- table1_compile: solbehave paper Table I (§V-B), Compile@k before and after one repair pass, per model
-- depends: samples
-- columns: model, contracts, k, compile_raw_pct, compile_repaired_pct, gain_points
CREATE OR REPLACE VIEW table1_compile AS
WITH per_contract AS (
    SELECT
        model,
        contract_id,
        count(*) AS k,
        avg(CASE WHEN compiled_raw THEN 1.0 ELSE 0.0 END) AS compile_raw,
        avg(CASE WHEN compiled_repaired THEN 1.0 ELSE 0.0 END) AS compile_repaired
    FROM samples
    GROUP BY model, contract_id
)
SELECT
    model,
    count(*) AS contracts,
    max(k) AS k,
    round(100 * avg(compile_raw), 1) AS compile_raw_pct,
    round(100 * avg(compile_repaired), 1) AS compile_repaired_pct,
    round(100 * (avg(compile_repaired) - avg(compile_raw)), 1) AS gain_points
FROM per_contract
GROUP BY model
ORDER BY compile_repaired_pct DESC, model;

COMMENT ON VIEW table1_compile IS 'Per model: Compile@k raw and after one repair pass (compiling samples / k, averaged over contracts, in %), and the gain in percentage points. k is the samples per contract (--samples). Paper Table I.';
