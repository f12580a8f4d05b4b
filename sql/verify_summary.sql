-- verify_summary: solbehave paper §IV-A(b), the reproducibility check (admission at >= 80% of the first 200 historical transactions reproduced)
-- depends: verify_calls
-- columns: contract_id, replayed, reproduced, reproduced_rate, first_diverging_tx
CREATE OR REPLACE VIEW verify_summary AS
SELECT
    contract_id,
    count(*) AS replayed,
    count(*) FILTER (WHERE status_match) AS reproduced,
    CAST(count(*) FILTER (WHERE status_match) AS DOUBLE) / count(*) AS reproduced_rate,
    min(tx_index) FILTER (WHERE NOT status_match) AS first_diverging_tx
FROM verify_calls
GROUP BY contract_id
ORDER BY contract_id;

COMMENT ON VIEW verify_summary IS 'Per contract: transactions replayed, reproduced (replayed status = recorded status), reproduced_rate (their share, 0..1), and the tx_index of the first divergence (NULL when none). Paper §IV-A(b).';
