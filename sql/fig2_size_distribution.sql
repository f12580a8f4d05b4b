-- fig2_size_distribution: Figure 2 of the SolBehave paper (§IV-A): share of contracts per size bucket
-- (non-trivial functions: 1-5, 6-10, 11-20, 21-30, 31+) at the crawled stage (every contract whose
-- original compiled, so its size is known) and at the reproducibility-verified stage (kept by verify).
-- depends: contracts, reproducibility
-- columns: stage, size_bucket, contracts, share, bucket_order
CREATE OR REPLACE VIEW fig2_size_distribution AS
WITH staged AS (
    SELECT 'crawled' AS stage, size_bucket FROM contracts WHERE size_bucket <> '0'
    UNION ALL
    SELECT 'verified' AS stage, c.size_bucket
    FROM contracts c JOIN reproducibility r USING (contract_id)
    WHERE r.kept AND c.size_bucket <> '0'
)
SELECT
    stage,
    size_bucket,
    count(*) AS contracts,
    count(*) / sum(count(*)) OVER (PARTITION BY stage) AS share,
    CASE size_bucket WHEN '1-5' THEN 1 WHEN '6-10' THEN 2 WHEN '11-20' THEN 3 WHEN '21-30' THEN 4 ELSE 5 END AS bucket_order
FROM staged
GROUP BY stage, size_bucket
ORDER BY stage, bucket_order;

COMMENT ON VIEW fig2_size_distribution IS 'Figure 2: share of contracts per non-trivial-function bucket, crawled vs reproducibility-verified';
