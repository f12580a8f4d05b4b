-- dcr_stats: solbehave paper §IV-D/E, the DCR graph statistics per extractor: relations per graph (3.7), events per contract (6.0), the share of each relation kind (response about 7%), ownership-transferring events per contract (0.52) and the share of contracts with none (71.6%), each with its 95% percentile bootstrap interval over contracts
-- depends: dcr_graphs, value_intervals, rate_intervals, coverage
-- columns: extractor, reference, contracts, graphs, relations_per_graph, relations_per_graph_ci_low, relations_per_graph_ci_high
-- columns: events_per_contract, events_per_contract_ci_low, events_per_contract_ci_high
-- columns: condition_share, condition_share_ci_low, condition_share_ci_high, response_share, response_share_ci_low, response_share_ci_high
-- columns: include_share, include_share_ci_low, include_share_ci_high, exclude_share, exclude_share_ci_low, exclude_share_ci_high
-- columns: ownership_events_per_contract, ownership_events_per_contract_ci_low, ownership_events_per_contract_ci_high
-- columns: no_ownership_rate, no_ownership_rate_ci_low, no_ownership_rate_ci_high
CREATE OR REPLACE VIEW dcr_stats AS
WITH extractors AS (
    SELECT extractor, count(*) AS contracts, count(*) FILTER (WHERE status = 'ok') AS graphs
    FROM dcr_graphs
    GROUP BY extractor
),
-- The reference extractor: the one whose sequences O3 replays in the fixed setting.
reference AS (SELECT DISTINCT model AS extractor FROM coverage WHERE oracle = 'O3' AND graph_setting = 'fixed'),
v AS MATERIALIZED (
    SELECT model AS extractor, measure, any_value(value) AS value, any_value(ci_low) AS lo, any_value(ci_high) AS hi
    FROM value_intervals
    WHERE measure LIKE 'dcr\_%' ESCAPE '\'
    GROUP BY model, measure
),
pivoted AS (
    SELECT extractor,
        any_value(value) FILTER (WHERE measure = 'dcr_relations') AS relations_per_graph,
        any_value(lo) FILTER (WHERE measure = 'dcr_relations') AS relations_per_graph_ci_low,
        any_value(hi) FILTER (WHERE measure = 'dcr_relations') AS relations_per_graph_ci_high,
        any_value(value) FILTER (WHERE measure = 'dcr_events') AS events_per_contract,
        any_value(lo) FILTER (WHERE measure = 'dcr_events') AS events_per_contract_ci_low,
        any_value(hi) FILTER (WHERE measure = 'dcr_events') AS events_per_contract_ci_high,
        any_value(value) FILTER (WHERE measure = 'dcr_share_condition') AS condition_share,
        any_value(lo) FILTER (WHERE measure = 'dcr_share_condition') AS condition_share_ci_low,
        any_value(hi) FILTER (WHERE measure = 'dcr_share_condition') AS condition_share_ci_high,
        any_value(value) FILTER (WHERE measure = 'dcr_share_response') AS response_share,
        any_value(lo) FILTER (WHERE measure = 'dcr_share_response') AS response_share_ci_low,
        any_value(hi) FILTER (WHERE measure = 'dcr_share_response') AS response_share_ci_high,
        any_value(value) FILTER (WHERE measure = 'dcr_share_include') AS include_share,
        any_value(lo) FILTER (WHERE measure = 'dcr_share_include') AS include_share_ci_low,
        any_value(hi) FILTER (WHERE measure = 'dcr_share_include') AS include_share_ci_high,
        any_value(value) FILTER (WHERE measure = 'dcr_share_exclude') AS exclude_share,
        any_value(lo) FILTER (WHERE measure = 'dcr_share_exclude') AS exclude_share_ci_low,
        any_value(hi) FILTER (WHERE measure = 'dcr_share_exclude') AS exclude_share_ci_high,
        any_value(value) FILTER (WHERE measure = 'dcr_ownership_events') AS ownership_events_per_contract,
        any_value(lo) FILTER (WHERE measure = 'dcr_ownership_events') AS ownership_events_per_contract_ci_low,
        any_value(hi) FILTER (WHERE measure = 'dcr_ownership_events') AS ownership_events_per_contract_ci_high
    FROM v
    GROUP BY extractor
),
none AS (
    SELECT model AS extractor, hit_rate AS no_ownership_rate, hit_rate_ci_low AS no_ownership_rate_ci_low, hit_rate_ci_high AS no_ownership_rate_ci_high
    FROM rate_intervals
    WHERE measure = 'dcr_no_ownership_events'
)
SELECT
    e.extractor,
    e.extractor IN (SELECT extractor FROM reference) AS reference,
    e.contracts,
    e.graphs,
    p.* EXCLUDE (extractor),
    n.* EXCLUDE (extractor)
FROM extractors e
LEFT JOIN pivoted p USING (extractor)
LEFT JOIN none n USING (extractor)
ORDER BY e.extractor;

COMMENT ON VIEW dcr_stats IS 'Per DCR extractor (static or llm:<model>): reference, whether O3 replays its sequences in the fixed setting (the paper''s reference extractor, GEMMA-4-31B); contracts it was run on (dcr_graphs rows) and graphs, the valid ones. Over the contracts with a valid graph, each with its 95% percentile bootstrap interval over contracts (_ci_low, _ci_high; value_intervals, rate_intervals): relations_per_graph and events_per_contract (means; the paper: 3.7 and 6.0); condition_share, response_share, include_share, exclude_share (the share of all the extractor''s relations of that kind, 0..1); ownership_events_per_contract (events whose function transfers ownership: one Algorithm 1 sent at a sequence''s end, or renounceOwnership / transferOwnership; the paper: 0.52) and no_ownership_rate (the share of contracts whose graph has none; the paper: 71.6%). An extractor''s ownership events are counted only on contracts where Algorithm 1 ran, or by those two names.';
