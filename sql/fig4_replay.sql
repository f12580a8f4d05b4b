-- fig4_replay: solbehave paper Figure 4(a), the replay columns: per oracle, model, graph setting and Algorithm 1 profile, contracts compared (N), mean and minimum status match rate, divergent contracts and those gas alone makes divergent
-- depends: replay_sample_summary, replay_secondary, replay_calls, samples, rate_intervals, value_intervals
-- columns: oracle, model, graph_setting, profile, extractor, n, status_match_rate, status_match_min_rate, divergent
-- columns: divergent_gas_only, secondary_only_calls, secondary_only_contracts
-- columns: divergent_rate, divergent_rate_ci_low, divergent_rate_ci_high, status_match_rate_ci_low, status_match_rate_ci_high
CREATE OR REPLACE VIEW fig4_replay AS
WITH per_contract AS (
    SELECT
        oracle, graph_setting, profile, model, contract_id,
        string_agg(DISTINCT extractor, ',' ORDER BY extractor) AS extractor,
        avg(status_match_rate ORDER BY status_match_rate) AS mean_rate,
        min(status_match_rate) AS min_rate,
        bool_or(divergent) AS divergent
    FROM replay_sample_summary
    GROUP BY ALL
),
-- A divergent contract is gas-only when every call that disagreed, on any
-- sample, failed only for want of the recorded gas limit (replay_calls.gas_limited).
gas_only AS (
    SELECT oracle, graph_setting, profile, model, contract_id
    FROM replay_calls
    WHERE NOT status_match
    GROUP BY ALL
    HAVING bool_and(gas_limited)
),
per_model AS (
    SELECT
        oracle, graph_setting, profile, model,
        string_agg(DISTINCT extractor, ',' ORDER BY extractor) AS extractor,
        count(*) AS n,
        avg(mean_rate ORDER BY mean_rate) AS status_match_rate,
        avg(min_rate ORDER BY min_rate) AS status_match_min_rate,
        count(*) FILTER (WHERE divergent) AS divergent,
        count(g.contract_id) FILTER (WHERE divergent) AS divergent_gas_only
    FROM per_contract c
    LEFT JOIN gas_only g USING (oracle, graph_setting, profile, model, contract_id)
    GROUP BY oracle, graph_setting, profile, model
),
oracles AS (SELECT DISTINCT oracle, graph_setting, profile FROM per_contract),
models AS (SELECT DISTINCT model FROM samples UNION SELECT DISTINCT model FROM per_contract)
SELECT
    o.oracle,
    m.model,
    o.graph_setting,
    o.profile,
    p.extractor,
    coalesce(p.n, 0) AS n,
    p.status_match_rate,
    p.status_match_min_rate,
    coalesce(p.divergent, 0) AS divergent,
    coalesce(p.divergent_gas_only, 0) AS divergent_gas_only,
    coalesce(s.secondary_only_calls, 0) AS secondary_only_calls,
    coalesce(s.secondary_only_contracts, 0) AS secondary_only_contracts,
    CAST(p.divergent AS DOUBLE) / p.n AS divergent_rate,
    r.hit_rate_ci_low AS divergent_rate_ci_low,
    r.hit_rate_ci_high AS divergent_rate_ci_high,
    v.ci_low AS status_match_rate_ci_low,
    v.ci_high AS status_match_rate_ci_high
FROM oracles o
CROSS JOIN models m
LEFT JOIN per_model p ON p.oracle = o.oracle AND p.graph_setting = o.graph_setting AND p.profile = o.profile AND p.model = m.model
LEFT JOIN replay_secondary s ON s.oracle = o.oracle AND s.graph_setting = o.graph_setting AND s.profile = o.profile AND s.model = m.model
LEFT JOIN rate_intervals r ON r.measure = 'divergent' AND r.oracle = o.oracle AND r.graph_setting = o.graph_setting AND r.profile = o.profile AND r.model = m.model
LEFT JOIN value_intervals v ON v.measure = 'status_match' AND v.oracle = o.oracle AND v.graph_setting = o.graph_setting AND v.profile = o.profile AND v.model = m.model
ORDER BY o.oracle, o.graph_setting, o.profile, m.model;

COMMENT ON VIEW fig4_replay IS 'Figure 4(a), replay oracles: one row per replay oracle present (O2, O3 per graph setting and Algorithm 1 profile, O4 beside them) and model. profile: paper (the default) or extended (see sequence_calls), '''' for O2; extractor: the extractor whose DCR graphs made the O3/O4 calls (fixed: the reference extractor; matched: the model''s own), NULL where the model has no row. n: contracts compared (at least one compiling sample replayed; 0 when the model has none). status_match_rate: a contract''s status match rate is the mean over its samples, then averaged over contracts (0..1). status_match_min_rate: the minimum over a contract''s samples, averaged over contracts, since one faulty sample can hide in a mean over ten. divergent: contracts where some sample disagrees with the original on some call. divergent_gas_only: of those, the contracts whose every disagreeing call only ran out of its gas limit on the sample and agrees when re-run with a generous one (replay_calls.gas_limited): verdicts gas alone decides; they stay divergent, status being the criterion (§IV-F). secondary_only_calls / secondary_only_contracts: calls whose status matched but gas (±10%), events, return data or storage differed, and contracts only those would flag (see replay_secondary). divergent_rate: divergent / n (NULL when n is 0), with its 95% percentile bootstrap interval over the n contracts, divergent_rate_ci_low / _ci_high (rate_intervals). status_match_rate_ci_low / _ci_high: the same interval for status_match_rate (value_intervals, measure status_match).';
