-- table5_contracts: dataset helper for solbehave paper Table V (table5_o1) and its intervals (contract_outcomes): the contracts of its fixed N, those with a fuzzable function and a compiling sample under any LLM model (a row in fuzz_results), the controls of control_models counting only in a run with no LLM model
-- depends: fuzz_results, control_models
-- columns: contract_id
CREATE OR REPLACE VIEW table5_contracts AS
SELECT DISTINCT contract_id FROM fuzz_results
WHERE model NOT IN (SELECT model FROM control_models)
    OR NOT EXISTS (SELECT 1 FROM fuzz_results WHERE model NOT IN (SELECT model FROM control_models))
ORDER BY contract_id;

COMMENT ON VIEW table5_contracts IS 'Table V''s fixed N as contracts: every contract some LLM model has a fuzz_results row on (a fuzzable function and a compiling sample); in a run with only the controls (control_models), the controls'' contracts. table5_o1.n counts them; contract_outcomes'' o1_contract_equivalent gives every model a yes/no on each.';
