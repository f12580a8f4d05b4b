-- sequence_stats: solbehave paper §IV-E2(e), calls Algorithm 1 attempted, kept and discarded per extractor, and the per-contract discard rate
-- depends: sequence_calls, dcr_graphs
-- columns: extractor, contracts, contracts_attempted, attempted, kept, discarded, discard_rate, median_discard_rate
-- columns: contracts_above_98, contracts_without_sequence, kept_proposed, kept_history, kept_search
-- columns: kept_fallback_share, sequences, kept_final
CREATE OR REPLACE VIEW sequence_stats AS
WITH graphs AS (
    SELECT DISTINCT contract_id, extractor FROM dcr_graphs WHERE status = 'ok'
    UNION
    SELECT DISTINCT contract_id, extractor FROM sequence_calls
),
per_contract AS (
    SELECT
        contract_id, extractor,
        count(*) AS attempted,
        count(*) FILTER (WHERE kept) AS kept,
        count(*) FILTER (WHERE kept AND args_source = 'proposed') AS kept_proposed,
        count(*) FILTER (WHERE kept AND args_source = 'history') AS kept_history,
        count(*) FILTER (WHERE kept AND args_source = 'search') AS kept_search,
        count(*) FILTER (WHERE kept AND priority = 'final') AS kept_final,
        count(DISTINCT seq) AS sequences
    FROM sequence_calls
    GROUP BY contract_id, extractor
),
contracts AS (
    SELECT
        g.extractor, g.contract_id,
        coalesce(p.attempted, 0) AS attempted,
        coalesce(p.kept, 0) AS kept,
        coalesce(p.kept_proposed, 0) AS kept_proposed,
        coalesce(p.kept_history, 0) AS kept_history,
        coalesce(p.kept_search, 0) AS kept_search,
        coalesce(p.kept_final, 0) AS kept_final,
        coalesce(p.sequences, 0) AS sequences,
        CASE WHEN p.attempted > 0 THEN (p.attempted - p.kept)::DOUBLE / p.attempted END AS discard_rate
    FROM graphs g
    LEFT JOIN per_contract p USING (contract_id, extractor)
)
SELECT
    extractor,
    count(*) AS contracts,
    count(*) FILTER (WHERE attempted > 0) AS contracts_attempted,
    CAST(sum(attempted) AS BIGINT) AS attempted,
    CAST(sum(kept) AS BIGINT) AS kept,
    CAST(sum(attempted - kept) AS BIGINT) AS discarded,
    CASE WHEN sum(attempted) > 0 THEN sum(attempted - kept)::DOUBLE / sum(attempted) END AS discard_rate,
    median(discard_rate) AS median_discard_rate,
    count(*) FILTER (WHERE discard_rate > 0.98) AS contracts_above_98,
    count(*) FILTER (WHERE kept = 0) AS contracts_without_sequence,
    CAST(sum(kept_proposed) AS BIGINT) AS kept_proposed,
    CAST(sum(kept_history) AS BIGINT) AS kept_history,
    CAST(sum(kept_search) AS BIGINT) AS kept_search,
    CASE WHEN sum(kept) > 0 THEN sum(kept_history + kept_search)::DOUBLE / sum(kept) END AS kept_fallback_share,
    CAST(sum(sequences) AS BIGINT) AS sequences,
    CAST(sum(kept_final) AS BIGINT) AS kept_final
FROM contracts
GROUP BY extractor
ORDER BY extractor;

COMMENT ON VIEW sequence_stats IS 'Per extractor, over the contracts with a graph (dcr_graphs status ok, or sequence rows): calls Algorithm 1 tried on the original (attempted, fallback tries included), kept (accepted, part of a sequence) and discarded (everything else: reverts, and calls that could not be sent), the overall and the median per-contract discard rate, contracts whose discard rate exceeds 98%, and contracts left without any kept call (no sequence: O3 cannot evaluate them; a graph whose marking allows nothing has no rows and counts here). kept_proposed / kept_history / kept_search: kept calls by the arguments that made them pass (the graph''s, a recorded call''s, the O1 generators''); kept_fallback_share: the share of the fallback (the paper: 0.9% from history, no search). sequences: sequences started; kept_final: ownership-transferring calls kept at the end of a sequence. The paper: 256,923 attempted, 212,904 kept (17.1% discarded), median 4.9%, 37 contracts above 98%, 32 without a sequence.';
