-- contract_values: dataset helper for the 95% intervals of the solbehave paper's means and ratios over contracts (value_intervals): one (num, den) per measure, oracle setting, model (or extractor) and contract, the unit the paper samples, so a rate is sum(num) / sum(den) over a group's contracts: Table II's Compile@k (the mean of per-contract shares: den 1), Table IV's coverage, O3's reach over functions (§V-E: functions only O3 calls over all functions), the DCR graph statistics (§IV-D/E), and the per-contract status match rates behind oracle_agreement's Spearman interval
-- depends: contract_costs, samples, contracts, table4_contracts, dcr_graphs, dcr_events, dcr_relations, sequence_calls, replay_sample_summary, control_models
-- columns: measure, oracle, graph_setting, profile, model, contract_id, num, den
CREATE OR REPLACE VIEW contract_values AS
-- Table II: a kept contract's share of the model's k samples that compile, raw and after repair.
WITH compile AS (
    SELECT model, contract_id,
        avg(CASE WHEN compiled_raw THEN 1.0 ELSE 0.0 END ORDER BY compiled_raw) AS raw,
        avg(CASE WHEN compiled_repaired THEN 1.0 ELSE 0.0 END ORDER BY compiled_repaired) AS repaired
    FROM samples
    WHERE contract_id IN (SELECT contract_id FROM contracts WHERE kept)
    GROUP BY model, contract_id
),
-- §IV-D/E: an extractor's valid graphs, one per contract.
graphs AS (
    SELECT extractor, contract_id, events, relations FROM dcr_graphs WHERE status = 'ok'
),
-- The functions Algorithm 1 sent as ownership-transferring events at a
-- sequence's end (priority final), and the two the ABI names always count as.
ownership AS (
    SELECT DISTINCT contract_id, function FROM sequence_calls WHERE priority = 'final'
),
ownership_events AS (
    SELECT g.extractor, g.contract_id,
        count(e.event_id) FILTER (WHERE e.function IN ('renounceOwnership', 'transferOwnership') OR o.function IS NOT NULL) AS n
    FROM graphs g
    LEFT JOIN dcr_events e ON e.extractor = g.extractor AND e.contract_id = g.contract_id
    LEFT JOIN ownership o ON o.contract_id = e.contract_id AND o.function = e.function
    GROUP BY g.extractor, g.contract_id
),
kinds AS (SELECT DISTINCT type FROM dcr_relations),
relation_kinds AS (
    SELECT g.extractor, g.contract_id, k.type, count(r.relation_index) AS n, g.relations
    FROM graphs g
    CROSS JOIN kinds k
    LEFT JOIN dcr_relations r ON r.extractor = g.extractor AND r.contract_id = g.contract_id AND r.type = k.type
    GROUP BY g.extractor, g.contract_id, k.type, g.relations
)
SELECT 'compile_raw' AS measure, '' AS oracle, '' AS graph_setting, '' AS profile, model, contract_id, raw AS num, 1.0 AS den FROM compile
UNION ALL
SELECT 'compile_repaired', '', '', '', model, contract_id, repaired, 1.0 FROM compile
UNION ALL
SELECT 'compile_gain', '', '', '', model, contract_id, repaired - raw, 1.0 FROM compile
UNION ALL
-- Table IV: the mean over kept contracts of each oracle's share of the contract's functions.
SELECT 'o3_coverage', 'O3', '', profile, extractor, contract_id, o3_share, 1.0 FROM table4_contracts
UNION ALL
SELECT 'o2_coverage', 'O2', '', profile, extractor, contract_id, o2_share, 1.0 FROM table4_contracts
UNION ALL
-- §V-E, §VII: the functions O3 calls and no historical transaction did, over all functions.
SELECT 'o3_only_functions', 'O3', '', profile, extractor, contract_id, o3_only, functions FROM table4_contracts
UNION ALL
SELECT 'dcr_relations', '', '', '', extractor, contract_id, relations, 1.0 FROM graphs
UNION ALL
SELECT 'dcr_events', '', '', '', extractor, contract_id, events, 1.0 FROM graphs
UNION ALL
SELECT 'dcr_ownership_events', '', '', '', extractor, contract_id, n, 1.0 FROM ownership_events
UNION ALL
-- the share of an extractor's relations of one kind (condition, response, include, exclude)
SELECT 'dcr_share_' || type, '', '', '', extractor, contract_id, n, relations FROM relation_kinds
UNION ALL
-- Figure 4(a)'s whiskers and oracle_agreement (O2 and O3): a contract's status match rate, the mean over its samples (fig4_replay).
SELECT 'status_match', oracle, graph_setting, profile, model, contract_id,
    avg(status_match_rate ORDER BY status_match_rate), 1.0
FROM replay_sample_summary
WHERE oracle IN ('O2', 'O3', 'O4')
GROUP BY oracle, graph_setting, profile, model, contract_id
UNION ALL
-- §V-D e: a contract's O2 and O3 wall seconds (the original's units and the model's samples),
-- the mean over the LLM models evaluated on it (contract_costs; model '': pooled over models, controls left out).
SELECT 'wall_seconds', upper(stage), '', '', '', contract_id, avg(wall_s ORDER BY wall_s), 1.0
FROM contract_costs
WHERE stage IN ('o2', 'o3') AND model <> '' AND model NOT IN (SELECT model FROM control_models)
GROUP BY stage, contract_id;

COMMENT ON VIEW contract_values IS 'One (num, den) per measure, oracle, graph setting, Algorithm 1 profile, model (the extractor for o3_*, o2_coverage and dcr_*) and contract; a group''s value is sum(num) / sum(den) over its contracts (value_intervals). compile_raw, compile_repaired, compile_gain (Table II): the kept contract''s share of the model''s samples that compile raw, after repair, and their difference (den 1: the mean over contracts). o3_coverage, o2_coverage (Table IV): the kept contract''s share of its state-changing functions O3 (that extractor''s sequences) and O2 call (table4_contracts; den 1). o3_only_functions (§V-E): the functions only O3 calls over the contract''s functions (num, den: counts), so the value is the share of all state-changing functions. dcr_relations, dcr_events, dcr_ownership_events (§IV-D/E): per contract with a valid graph of the extractor, its relations, events, and events whose function transfers ownership (one Algorithm 1 sent at a sequence''s end, sequence_calls.priority final, or renounceOwnership / transferOwnership); den 1, so the value is a mean per graph. dcr_share_<type>: the graph''s relations of that type over its relations. status_match: a contract''s status match rate under O2, O3 or O4 (mean over samples, replay_sample_summary). wall_seconds (§V-D e; oracle O2 or O3, model empty): the contract''s wall seconds in that stage, the original''s units and a model''s, averaged over the LLM models evaluated on it, the controls of control_models left out (contract_costs; den 1, so the value is a mean per contract; machine-dependent, as the paper''s is).';
