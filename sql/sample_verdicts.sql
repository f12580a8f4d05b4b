-- sample_verdicts: dataset helper, the oracle-agnostic verdict per oracle, graph setting, profile, contract and sample (divergent or not) that mutant_kills and the oracle comparison tables join on
-- depends: replay_sample_summary, fuzz_results
-- columns: oracle, graph_setting, profile, extractor, contract_id, model, sample, divergent
CREATE OR REPLACE VIEW sample_verdicts AS
-- One branch per source of verdicts.
SELECT oracle, graph_setting, profile, extractor, contract_id, model, sample, divergent
FROM replay_sample_summary
UNION ALL
-- O1 (fuzz_results): a sample is divergent when some fuzzable function is non-equivalent.
SELECT 'O1' AS oracle, '' AS graph_setting, '' AS profile, '' AS extractor, contract_id, model, sample, NOT bool_and(equivalent) AS divergent
FROM fuzz_results
GROUP BY contract_id, model, sample;

COMMENT ON VIEW sample_verdicts IS 'One verdict per oracle, graph setting, Algorithm 1 profile and extractor (O3/O4), contract, model and sample: divergent = the oracle found a disagreement with the original. Replay oracles (O2, O3, O4) come from replay_sample_summary; O1 from fuzz_results (graph_setting, profile and extractor empty; divergent when some fuzzable function of the sample is non-equivalent); other oracles add a UNION ALL branch with the same columns.';
