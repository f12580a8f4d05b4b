-- contract_outcomes: dataset helper for the bootstrap intervals (rate_intervals, model_differences): one yes/no outcome per measure, oracle setting, model and contract, the unit the solbehave paper samples, so every headline rate is the share of contracts with a yes
-- depends: fuzz_results, samples, sample_verdicts
-- columns: measure, oracle, graph_setting, profile, model, contract_id, hit
CREATE OR REPLACE VIEW contract_outcomes AS
WITH per_sample AS (
    SELECT model, contract_id, sample, bool_and(equivalent) AS all_equivalent
    FROM fuzz_results
    GROUP BY model, contract_id, sample
),
-- Table V's fixed N: every model on every contract some model has a fuzz row on.
fuzzed_contracts AS (SELECT DISTINCT contract_id FROM fuzz_results),
models AS (SELECT DISTINCT model FROM samples UNION SELECT DISTINCT model FROM fuzz_results),
o1_equivalent AS (
    SELECT m.model, c.contract_id, coalesce(bool_or(s.all_equivalent), false) AS hit
    FROM models m
    CROSS JOIN fuzzed_contracts c
    LEFT JOIN per_sample s ON s.model = m.model AND s.contract_id = c.contract_id
    GROUP BY m.model, c.contract_id
)
SELECT 'o1_contract_equivalent' AS measure, 'O1' AS oracle, '' AS graph_setting, '' AS profile, model, contract_id, hit
FROM o1_equivalent
UNION ALL
-- A contract is divergent under an oracle when some sample of the model is.
SELECT 'divergent' AS measure, oracle, graph_setting, profile, model, contract_id, bool_or(divergent) AS hit
FROM sample_verdicts
GROUP BY oracle, graph_setting, profile, model, contract_id;

COMMENT ON VIEW contract_outcomes IS 'One outcome (hit) per measure, oracle, graph setting, Algorithm 1 profile, model and contract; a headline rate is the share of a group''s contracts with hit. measure o1_contract_equivalent (Table V''s Contracts column): over the paper''s fixed N (contracts with a fuzzable function and a compiling sample under any model), hit when the model has a sample whose every fuzzable function is equivalent (false where it has no compiling sample). measure divergent (Figure 4, sample_verdicts): over the contracts the oracle evaluated for the model, hit when some sample diverges.';
