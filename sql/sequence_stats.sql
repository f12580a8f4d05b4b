-- sequence_stats: solbehave paper §IV-E2(e), calls Algorithm 1 attempted, kept and discarded per profile and extractor, and the per-contract discard rate
-- depends: sequence_contracts
-- columns: profile, extractor, contracts, contracts_attempted, attempted, kept, discarded, discard_rate, median_discard_rate
-- columns: contracts_above_98, contracts_without_sequence, kept_proposed, kept_history, kept_search
-- columns: kept_fallback_rate, sequences, kept_final, contracts_attempt_bound, attempt_bound_share
CREATE OR REPLACE VIEW sequence_stats AS
SELECT
    profile,
    extractor,
    count(*) AS contracts,
    count(*) FILTER (WHERE attempted > 0) AS contracts_attempted,
    CAST(sum(attempted) AS BIGINT) AS attempted,
    CAST(sum(kept) AS BIGINT) AS kept,
    CAST(sum(discarded) AS BIGINT) AS discarded,
    CASE WHEN sum(attempted) > 0 THEN sum(discarded)::DOUBLE / sum(attempted) END AS discard_rate,
    median(discard_rate) AS median_discard_rate,
    count(*) FILTER (WHERE discard_rate > 0.98) AS contracts_above_98,
    count(*) FILTER (WHERE kept = 0) AS contracts_without_sequence,
    CAST(sum(kept_proposed) AS BIGINT) AS kept_proposed,
    CAST(sum(kept_history) AS BIGINT) AS kept_history,
    CAST(sum(kept_search) AS BIGINT) AS kept_search,
    CASE WHEN sum(kept) > 0 THEN sum(kept_history + kept_search)::DOUBLE / sum(kept) END AS kept_fallback_rate,
    CAST(sum(sequences) AS BIGINT) AS sequences,
    CAST(sum(kept_final) AS BIGINT) AS kept_final,
    count(*) FILTER (WHERE hit_attempt_bound) AS contracts_attempt_bound,
    CASE WHEN count(*) FILTER (WHERE attempted > 0) > 0
        THEN (count(*) FILTER (WHERE hit_attempt_bound))::DOUBLE / count(*) FILTER (WHERE attempted > 0) END AS attempt_bound_share
FROM sequence_contracts
GROUP BY profile, extractor
ORDER BY profile, extractor;

COMMENT ON VIEW sequence_stats IS 'Per Algorithm 1 profile (paper, extended) and extractor, over the contracts with a graph (sequence_contracts): calls tried on the original (attempted, retries included), kept (accepted, part of a sequence) and discarded (everything else: reverts, and calls that could not be sent), the overall and the median per-contract discard rate, contracts whose discard rate exceeds 98%, and contracts left without any kept call (no sequence: O3 cannot evaluate them; a graph whose marking allows nothing has no rows and counts here). kept_proposed / kept_history / kept_search: kept calls by the arguments that made them pass (the graph''s, a recorded call''s, the O1 generators''); kept_fallback_rate: the share not the graph''s (the paper: 0.9% from history, no search). sequences: sequences started; kept_final: ownership-transferring calls kept at the end of a sequence; contracts_attempt_bound: contracts whose run the attempt bound, not T, ended (--o3-max-attempts, a guard against runs that can never keep T calls, 10·T by default; the paper''s Algorithm 1 has none; sequence_contracts lists them); attempt_bound_share: their share of the contracts attempted. The paper: 256,923 attempted, 212,904 kept (17.1% discarded), median 4.9%, 37 contracts above 98%, 32 without a sequence.';
