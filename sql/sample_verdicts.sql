-- sample_verdicts: dataset helper, the oracle-agnostic verdict per oracle, graph setting, contract and sample (divergent or not) that mutant_kills and the oracle comparison tables join on
-- depends: replay_sample_summary
-- columns: oracle, graph_setting, contract_id, model, sample, divergent
CREATE OR REPLACE VIEW sample_verdicts AS
-- One branch per source of verdicts. O1 joins with
--   UNION ALL SELECT 'O1', '', contract_id, model, sample, NOT bool_and(equivalent) FROM fuzz_results GROUP BY ALL
SELECT oracle, graph_setting, contract_id, model, sample, divergent
FROM replay_sample_summary;

COMMENT ON VIEW sample_verdicts IS 'One verdict per oracle, graph setting, contract, model and sample: divergent = the oracle found a disagreement with the original. Replay oracles (O2, O3, O4) come from replay_sample_summary; other oracles add a UNION ALL branch with the same columns.';
