-- fig2_size_distribution: Figure 2 of the SolBehave paper (§IV-A): share of contracts per size bucket (non-trivial functions: 0, 1-5, 6-10, 11-20, 21-30, 31+) at the crawled stage (candidates that passed the crawl filters, sized from the recorded source by the lexer, without compiling) and at the reproducibility-verified stage (kept by the reproducibility check)
-- depends: crawl_candidates, contracts, reproducibility
-- columns: stage, size_bucket, bucket_order, contracts, share_rate
CREATE OR REPLACE VIEW fig2_size_distribution AS
WITH buckets(size_bucket, bucket_order) AS (
    VALUES ('0', 0), ('1-5', 1), ('6-10', 2), ('11-20', 3), ('21-30', 4), ('31+', 5)
),
stages(stage) AS (VALUES ('crawled'), ('verified')),
staged AS (
    -- One row per candidate: a candidate crawled more than once counts once.
    SELECT 'crawled' AS stage, contract_id, any_value(size_bucket) AS size_bucket
    FROM crawl_candidates
    WHERE passed AND size_bucket <> ''
    GROUP BY contract_id
    UNION ALL
    SELECT 'verified' AS stage, contract_id, any_value(c.size_bucket) AS size_bucket
    FROM contracts c JOIN reproducibility r USING (contract_id)
    WHERE r.kept
    GROUP BY contract_id
),
counts AS (
    SELECT s.stage, b.size_bucket, b.bucket_order, count(x.contract_id) AS contracts
    FROM stages s
    CROSS JOIN buckets b
    LEFT JOIN staged x ON x.stage = s.stage AND x.size_bucket = b.size_bucket
    GROUP BY s.stage, b.size_bucket, b.bucket_order
)
SELECT
    stage,
    size_bucket,
    bucket_order,
    contracts,
    CASE WHEN sum(contracts) OVER (PARTITION BY stage) > 0
        THEN contracts / sum(contracts) OVER (PARTITION BY stage) ELSE 0 END AS share_rate
FROM counts
ORDER BY stage, bucket_order;

COMMENT ON VIEW fig2_size_distribution IS 'Figure 2: per stage and size bucket of non-trivial functions (the chain count: functions with a body in the target''s linearised inheritance chain, neither constructors nor view/pure), every one of the six buckets present at both stages (0 contracts included). crawled: candidates that passed the crawl filters (verified source, not a proxy, enough history; crawl_candidates.passed), sized from the recorded source by the lexer across its files, without compiling (crawl_candidates.size_bucket); empty when the crawl stage has not run. verified: contracts the reproducibility check kept (reproducibility.kept), sized from the compiled chain (contracts.size_bucket; the same count, so the two stages compare), before the size filter. contracts: how many; share_rate: their share of the stage (0..1; 0 when the stage is empty). bucket_order sorts the buckets.';
