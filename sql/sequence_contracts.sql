-- sequence_contracts: solbehave paper §IV-E2(e), per contract: the calls Algorithm 1 attempted, kept and discarded per profile and extractor, and whether the attempt bound stopped it
-- depends: sequence_calls, dcr_graphs
-- columns: profile, extractor, contract_id, attempted, kept, discarded, discard_rate
-- columns: kept_proposed, kept_history, kept_search, kept_final, sequences, senders, hit_attempt_bound
CREATE OR REPLACE VIEW sequence_contracts AS
WITH profiles AS (
    -- '' when no sequence was generated under any profile
    SELECT DISTINCT profile FROM sequence_calls
    UNION ALL
    SELECT '' WHERE NOT EXISTS (SELECT 1 FROM sequence_calls)
),
graphs AS (
    SELECT p.profile, g.contract_id, g.extractor
    FROM (SELECT DISTINCT contract_id, extractor FROM dcr_graphs WHERE status = 'ok') g
    CROSS JOIN profiles p
    UNION
    SELECT DISTINCT profile, contract_id, extractor FROM sequence_calls
),
per_contract AS (
    SELECT
        profile, contract_id, extractor,
        count(*) AS attempted,
        count(*) FILTER (WHERE kept) AS kept,
        count(*) FILTER (WHERE kept AND args_source = 'proposed') AS kept_proposed,
        count(*) FILTER (WHERE kept AND args_source = 'history') AS kept_history,
        count(*) FILTER (WHERE kept AND args_source = 'search') AS kept_search,
        count(*) FILTER (WHERE kept AND priority = 'final') AS kept_final,
        count(DISTINCT seq) AS sequences,
        count(DISTINCT sender) AS senders,
        bool_or(sequence_end = 'attempts') AS hit_attempt_bound
    FROM sequence_calls
    GROUP BY profile, contract_id, extractor
)
SELECT
    g.profile,
    g.extractor,
    g.contract_id,
    coalesce(p.attempted, 0) AS attempted,
    coalesce(p.kept, 0) AS kept,
    coalesce(p.attempted - p.kept, 0) AS discarded,
    CASE WHEN p.attempted > 0 THEN (p.attempted - p.kept)::DOUBLE / p.attempted END AS discard_rate,
    coalesce(p.kept_proposed, 0) AS kept_proposed,
    coalesce(p.kept_history, 0) AS kept_history,
    coalesce(p.kept_search, 0) AS kept_search,
    coalesce(p.kept_final, 0) AS kept_final,
    coalesce(p.sequences, 0) AS sequences,
    coalesce(p.senders, 0) AS senders,
    coalesce(p.hit_attempt_bound, false) AS hit_attempt_bound
FROM graphs g
LEFT JOIN per_contract p USING (profile, contract_id, extractor)
ORDER BY g.profile, g.extractor, g.contract_id;

COMMENT ON VIEW sequence_contracts IS 'Per Algorithm 1 profile (paper, extended; '''' when no sequence was generated at all), extractor and contract with a graph (dcr_graphs status ok, or sequence rows): calls tried on the original (attempted, retries included), kept (part of a sequence) and discarded (reverts, and calls that could not be sent), the discard rate (NULL without a try), kept calls by the arguments that made them pass (the graph''s, a recorded call''s, the O1 generators''), ownership-transferring calls kept at the end of a sequence, sequences started, distinct senders (1 under paper: the deployer), and hit_attempt_bound: the attempt bound, not T, ended the run (--o3-max-attempts, 10·T by default: a guard against runs that can never keep T calls, which the paper''s Algorithm 1 does not have).';
