-- table2_compile: solbehave paper Table II (§V-B), Compile@k before and after one repair pass, per model
-- depends: samples, contracts
-- columns: model, contracts, k, compile_raw_rate, compile_repaired_rate, gain_rate
CREATE OR REPLACE VIEW table2_compile AS
WITH per_contract AS (
    SELECT
        model,
        contract_id,
        count(*) AS k,
        avg(CASE WHEN compiled_raw THEN 1.0 ELSE 0.0 END ORDER BY compiled_raw) AS compile_raw,
        avg(CASE WHEN compiled_repaired THEN 1.0 ELSE 0.0 END ORDER BY compiled_repaired) AS compile_repaired
    FROM samples
    -- kept contracts only: samples of the size ablation (samples.ablation,
    -- contracts that compile but were not kept) belong to Table VII alone
    WHERE contract_id IN (SELECT contract_id FROM contracts WHERE kept)
    GROUP BY model, contract_id
)
SELECT
    model,
    count(*) AS contracts,
    max(k) AS k,
    round(avg(compile_raw ORDER BY compile_raw), 4) AS compile_raw_rate,
    round(avg(compile_repaired ORDER BY compile_repaired), 4) AS compile_repaired_rate,
    round(avg(compile_repaired ORDER BY compile_repaired) - avg(compile_raw ORDER BY compile_raw), 4) AS gain_rate
FROM per_contract
GROUP BY model
ORDER BY compile_repaired_rate DESC, model;

COMMENT ON VIEW table2_compile IS 'Per model: Compile@k raw and after one repair pass (compiling samples / k, averaged over contracts, 0-1), and the gain (repaired minus raw, 0-1). k is the samples per contract (--samples). A failed generation counts as not compiling when the model failed (garbage, no body) and is left out when the endpoint failed. Size-ablation samples (Table VII) are left out. Paper Table II.';
