-- mutant_kills: mutation-analysis check of the oracles (beyond the paper): per oracle and mutation operator, how many mutated samples the oracle compared and how many it exposed
-- depends: samples, sample_verdicts
-- columns: oracle, graph_setting, profile, operator, compared, exposed, exposed_rate
CREATE OR REPLACE VIEW mutant_kills AS
WITH mutated AS (
    SELECT DISTINCT contract_id, model, sample, m.operator AS operator
    FROM (
        SELECT contract_id, model, sample,
               unnest(from_json(mutations, '[{"function":"VARCHAR","signature":"VARCHAR","operator":"VARCHAR","detail":"VARCHAR"}]')) AS m
        FROM samples
        WHERE mutations NOT IN ('', '[]') AND json_valid(mutations)
    )
),
unmutated AS (
    SELECT DISTINCT contract_id, model, sample, '(none)' AS operator
    FROM samples
    WHERE mutations = '[]'
),
labelled AS (
    SELECT * FROM mutated
    UNION ALL
    SELECT * FROM unmutated
)
SELECT
    v.oracle,
    v.graph_setting,
    v.profile,
    l.operator,
    count(*) AS compared,
    count(*) FILTER (WHERE v.divergent) AS exposed,
    CAST(count(*) FILTER (WHERE v.divergent) AS DOUBLE) / count(*) AS exposed_rate
FROM labelled l
JOIN sample_verdicts v USING (contract_id, model, sample)
GROUP BY v.oracle, v.graph_setting, v.profile, l.operator
ORDER BY v.oracle, v.graph_setting, v.profile, l.operator;

COMMENT ON VIEW mutant_kills IS 'Per oracle (every oracle in sample_verdicts: O1, O2, O3 per graph setting and Algorithm 1 profile, and O4 on rows of its own, never merged with O3), graph setting, profile ('''' for O1 and O2) and mutation operator: mutated samples the oracle compared, how many it found divergent (exposed), and the share. A sample with several mutations counts under each of its operators. Operator (none): samples of the mutant generator left unmutated (mutations = []), whose exposure is a false alarm unless the oracle is right that they differ (they should not).';
