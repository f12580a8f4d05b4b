-- replay_secondary: solbehave paper §IV-F(b) and §VI, what the secondary observations (gas, events, return data, storage, view snapshots) flag that status does not
-- depends: replay_sample_summary, view_snapshots
-- columns: oracle, graph_setting, profile, extractor, model, contracts, calls, status_mismatch_calls, gas_flagged_calls
-- columns: events_differ_calls, return_differs_calls, storage_differs_calls, secondary_only_calls
-- columns: divergent_contracts, secondary_only_contracts, view_mismatches, view_only_contracts
CREATE OR REPLACE VIEW replay_secondary AS
WITH per_contract AS (
    SELECT
        oracle, graph_setting, profile, model, contract_id,
        string_agg(DISTINCT extractor, ',' ORDER BY extractor) AS extractor,
        sum(calls) AS calls,
        sum(calls - status_matches) AS status_mismatch_calls,
        bool_or(divergent) AS divergent,
        sum(gas_flagged_calls) AS gas_flagged_calls,
        sum(events_differ_calls) AS events_differ_calls,
        sum(return_differs_calls) AS return_differs_calls,
        sum(storage_differs_calls) AS storage_differs_calls,
        sum(secondary_only_calls) AS secondary_only_calls
    FROM replay_sample_summary
    GROUP BY ALL
),
view_mismatch AS (
    SELECT oracle, graph_setting, profile, model, contract_id, count(*) AS view_mismatches
    FROM view_snapshots
    WHERE NOT match
    GROUP BY ALL
)
SELECT
    p.oracle,
    p.graph_setting,
    p.profile,
    string_agg(DISTINCT p.extractor, ',' ORDER BY p.extractor) AS extractor,
    p.model,
    count(*) AS contracts,
    CAST(sum(p.calls) AS BIGINT) AS calls,
    CAST(sum(p.status_mismatch_calls) AS BIGINT) AS status_mismatch_calls,
    CAST(sum(p.gas_flagged_calls) AS BIGINT) AS gas_flagged_calls,
    CAST(sum(p.events_differ_calls) AS BIGINT) AS events_differ_calls,
    CAST(sum(p.return_differs_calls) AS BIGINT) AS return_differs_calls,
    CAST(sum(p.storage_differs_calls) AS BIGINT) AS storage_differs_calls,
    CAST(sum(p.secondary_only_calls) AS BIGINT) AS secondary_only_calls,
    count(*) FILTER (WHERE p.divergent) AS divergent_contracts,
    count(*) FILTER (WHERE NOT p.divergent AND p.secondary_only_calls > 0) AS secondary_only_contracts,
    CAST(coalesce(sum(v.view_mismatches), 0) AS BIGINT) AS view_mismatches,
    count(*) FILTER (WHERE NOT p.divergent AND v.view_mismatches > 0) AS view_only_contracts
FROM per_contract p
LEFT JOIN view_mismatch v USING (oracle, graph_setting, profile, model, contract_id)
GROUP BY p.oracle, p.graph_setting, p.profile, p.model
ORDER BY p.oracle, p.graph_setting, p.profile, p.model;

COMMENT ON VIEW replay_secondary IS 'Per replay oracle, graph setting, Algorithm 1 profile (O3/O4; '''' for O2) and model (extractor: the graphs'' extractor): calls compared, calls with a status disagreement, and among status-matching calls those flagged by gas (beyond ±10%), events (count or topics), return data, storage writes, or any of them (secondary_only_calls); divergent contracts; contracts that only a secondary axis flags (not divergent on status); mismatching view readings and contracts that only a view snapshot flags. The paper found no divergence the secondary observations exposed that status had not (§IV-F(b)).';
