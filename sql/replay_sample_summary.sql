-- replay_sample_summary: dataset helper for Figure 4 and §IV-F: one row per replay oracle, graph setting, profile, contract and sample, with its status match rate, divergence and the calls each secondary axis flags
-- depends: replay_calls
-- columns: oracle, graph_setting, profile, extractor, contract_id, model, sample, calls, status_matches
-- columns: status_match_rate, divergent, first_divergent_seq, first_divergent_step
-- columns: first_divergent_function, gas_flagged_calls, events_differ_calls, return_differs_calls
-- columns: storage_differs_calls, secondary_only_calls
CREATE OR REPLACE VIEW replay_sample_summary AS
WITH axes AS (
    SELECT
        *,
        n_events_ref <> n_events_sample OR topics_ref_sha256 <> topics_sample_sha256 AS events_differ,
        return_ref_sha256 <> return_sample_sha256 AS return_differs,
        storage_writes_ref_sha256 <> storage_writes_sample_sha256 AS storage_differs
    FROM replay_calls
)
SELECT
    oracle,
    graph_setting,
    profile,
    extractor,
    contract_id,
    model,
    sample,
    count(*) AS calls,
    count(*) FILTER (WHERE status_match) AS status_matches,
    CAST(count(*) FILTER (WHERE status_match) AS DOUBLE) / count(*) AS status_match_rate,
    bool_or(NOT status_match) AS divergent,
    arg_min(seq, seq * 1000000000 + step) FILTER (WHERE NOT status_match) AS first_divergent_seq,
    arg_min(step, seq * 1000000000 + step) FILTER (WHERE NOT status_match) AS first_divergent_step,
    arg_min(function, seq * 1000000000 + step) FILTER (WHERE NOT status_match) AS first_divergent_function,
    count(*) FILTER (WHERE status_match AND gas_flag) AS gas_flagged_calls,
    count(*) FILTER (WHERE status_match AND events_differ) AS events_differ_calls,
    count(*) FILTER (WHERE status_match AND return_differs) AS return_differs_calls,
    count(*) FILTER (WHERE status_match AND storage_differs) AS storage_differs_calls,
    count(*) FILTER (WHERE status_match AND (gas_flag OR events_differ OR return_differs OR storage_differs)) AS secondary_only_calls
FROM axes
GROUP BY oracle, graph_setting, profile, extractor, contract_id, model, sample;

COMMENT ON VIEW replay_sample_summary IS 'Per replay oracle (O2, O3, O4), graph setting, Algorithm 1 profile and extractor (O3/O4; '''' for O2), contract, model and sample: calls compared, calls whose status matched the original, the status match rate (§IV-F(a)), divergent (any status disagreement), where the first disagreement is, and, among status-matching calls, how many each secondary axis flags: gas beyond ±10%, events (count or topics), return data, storage writes, and any of them (secondary_only_calls).';
