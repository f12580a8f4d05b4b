-- construction_funnel: the benchmark construction funnel of the SolBehave paper (§IV-A): candidates ->
-- verified source -> not a proxy -> at least 200 transactions -> reproduced (>= 80% of the first 200)
-- -> size-kept (1-20 non-trivial functions). The crawl filters come from crawl_candidates; when crawl
-- did not run, every verified contract counts as a candidate that passed them.
-- depends: crawl_candidates, reproducibility, contracts
-- columns: step_order, step, contracts
CREATE OR REPLACE VIEW construction_funnel AS
WITH cand AS (
    SELECT contract_id, verified, NOT proxy AS not_proxy, enough_history FROM crawl_candidates
    UNION ALL
    SELECT contract_id, true, true, true FROM reproducibility
    WHERE NOT EXISTS (SELECT 1 FROM crawl_candidates)
),
joined AS (
    SELECT cand.*, coalesce(r.kept, false) AS reproduced, coalesce(c.kept, false) AS size_kept
    FROM cand
    LEFT JOIN reproducibility r USING (contract_id)
    LEFT JOIN contracts c USING (contract_id)
)
SELECT * FROM (
    SELECT 1 AS step_order, 'candidates' AS step, count(*) AS contracts FROM joined
    UNION ALL SELECT 2, 'verified_source', count(*) FILTER (WHERE verified) FROM joined
    UNION ALL SELECT 3, 'not_proxy', count(*) FILTER (WHERE verified AND not_proxy) FROM joined
    UNION ALL SELECT 4, 'enough_history', count(*) FILTER (WHERE verified AND not_proxy AND enough_history) FROM joined
    UNION ALL SELECT 5, 'reproduced', count(*) FILTER (WHERE verified AND not_proxy AND enough_history AND reproduced) FROM joined
    UNION ALL SELECT 6, 'size_kept', count(*) FILTER (WHERE verified AND not_proxy AND enough_history AND reproduced AND size_kept) FROM joined
)
ORDER BY step_order;

COMMENT ON VIEW construction_funnel IS 'Benchmark construction funnel: candidates, verified source, not proxy, >=200 tx, reproduced, size-kept';
