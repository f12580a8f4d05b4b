-- contract_outcomes: dataset helper for the bootstrap intervals (rate_intervals, model_differences): one yes/no outcome per measure, oracle setting, model and contract, the unit the solbehave paper samples, so every headline rate is the share of contracts with a yes
-- depends: fuzz_results, samples, sample_verdicts, table6_contracts, table4_contracts, coverage, dcr_events, contract_values, table5_contracts
-- columns: measure, oracle, graph_setting, profile, model, contract_id, hit
CREATE OR REPLACE VIEW contract_outcomes AS
WITH per_sample AS (
    SELECT model, contract_id, sample, bool_and(equivalent) AS all_equivalent
    FROM fuzz_results
    GROUP BY model, contract_id, sample
),
-- Table V's fixed N: every model on every contract of table5_contracts.
fuzzed_contracts AS (SELECT contract_id FROM table5_contracts),
models AS (SELECT DISTINCT model FROM samples UNION SELECT DISTINCT model FROM fuzz_results),
o1_equivalent AS (
    SELECT m.model, c.contract_id, coalesce(bool_or(s.all_equivalent), false) AS hit
    FROM models m
    CROSS JOIN fuzzed_contracts c
    LEFT JOIN per_sample s ON s.model = m.model AND s.contract_id = c.contract_id
    GROUP BY m.model, c.contract_id
),
-- §I, §VII: O3 (an extractor's sequences) calls a function the extractor's graph
-- gives the owner role and no historical transaction (O2) ever called.
o3_calls AS (
    SELECT model AS extractor, profile, contract_id, function FROM coverage WHERE oracle = 'O3' AND calls > 0
),
o2_calls AS (
    SELECT DISTINCT contract_id, function FROM coverage WHERE oracle = 'O2' AND calls > 0
),
owner_only AS (
    SELECT DISTINCT extractor, contract_id, function FROM dcr_events WHERE role = 'owner'
),
owner_reach AS (
    SELECT DISTINCT x.extractor, x.profile, x.contract_id
    FROM o3_calls x
    JOIN owner_only o USING (extractor, contract_id, function)
    ANTI JOIN o2_calls h USING (contract_id, function)
)
SELECT 'o1_contract_equivalent' AS measure, 'O1' AS oracle, '' AS graph_setting, '' AS profile, model, contract_id, hit
FROM o1_equivalent
UNION ALL
-- A contract is divergent under an oracle when some sample of the model is.
SELECT 'divergent' AS measure, oracle, graph_setting, profile, model, contract_id, bool_or(divergent) AS hit
FROM sample_verdicts
GROUP BY oracle, graph_setting, profile, model, contract_id
UNION ALL
-- Table VI's shares: over the contracts every oracle evaluated, flagged by O1 alone, by all three, by none.
SELECT 'table6_' || kind AS measure, CASE WHEN profile <> '' THEN 'O1,O2,O3' ELSE 'O1,O2' END AS oracle, 'fixed' AS graph_setting, profile, model, contract_id,
    CASE kind WHEN 'o1_only' THEN o1 AND NOT o2 AND NOT o3 WHEN 'all_three' THEN o1 AND o2 AND o3 ELSE NOT (o1 OR o2 OR o3) END AS hit
FROM table6_contracts
CROSS JOIN (VALUES ('o1_only'), ('all_three'), ('none')) k(kind)
UNION ALL
-- Over every kept contract (table4_contracts), per extractor and profile.
SELECT 'o3_owner_only_reach' AS measure, 'O3' AS oracle, '' AS graph_setting, t.profile, t.extractor AS model, t.contract_id, r.contract_id IS NOT NULL AS hit
FROM table4_contracts t
LEFT JOIN owner_reach r USING (extractor, profile, contract_id)
UNION ALL
-- §I, §VII: O3 (an extractor's sequences) calls some function no historical transaction called, whatever
-- role the graph gives it ("functions that real users never did ... on one contract in three").
SELECT 'o3_unused_reach' AS measure, 'O3' AS oracle, '' AS graph_setting, profile, extractor AS model, contract_id, o3_only > 0 AS hit
FROM table4_contracts
UNION ALL
-- §IV-E d: contracts whose graph (of that extractor) has no ownership-transferring event.
SELECT 'dcr_no_ownership_events' AS measure, '' AS oracle, '' AS graph_setting, '' AS profile, model, contract_id, num = 0 AS hit
FROM contract_values
WHERE measure = 'dcr_ownership_events';

COMMENT ON VIEW contract_outcomes IS 'One outcome (hit) per measure, oracle, graph setting, Algorithm 1 profile, model and contract; a headline rate is the share of a group''s contracts with hit. measure o1_contract_equivalent (Table V''s Contracts column): over the paper''s fixed N (contracts with a fuzzable function and a compiling sample under any model), hit when the model has a sample whose every fuzzable function is equivalent (false where it has no compiling sample). measure divergent (Figure 4, sample_verdicts): over the contracts the oracle evaluated for the model, hit when some sample diverges. measures table6_o1_only, table6_all_three, table6_none (Table VI, oracle O1,O2,O3 or O1,O2, per O3 profile): over the contracts every oracle evaluated (table6_contracts), flagged by O1 alone, by all three, by none. o3_owner_only_reach (§I, §VII; model = the extractor, per profile): over every kept contract, hit when O3 with that extractor''s sequences calls a function the extractor''s graph gives the owner role (dcr_events.role) and no historical transaction (O2 coverage) called. o3_unused_reach (§I, §VII; model = the extractor, per profile): over every kept contract, hit when O3 with that extractor''s sequences calls some function no historical transaction called, whatever its role (table4_contracts.o3_only > 0). measure dcr_no_ownership_events (§IV-E; model = the extractor): over the contracts with a valid graph, hit when the graph has no ownership-transferring event (contract_values.dcr_ownership_events).';
