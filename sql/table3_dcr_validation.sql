-- table3_dcr_validation: solbehave paper Table III (§V-C), human validation of the extracted DCR relations, per extractor and relation type
-- depends: dcr_relations, dcr_annotations, dcr_graphs
-- columns: extractor, relation, tp, fp, fn, precision, recall, f1, unjudged
CREATE OR REPLACE VIEW table3_dcr_validation AS
WITH judgements AS (
    -- one verdict per annotated relation; a relation judged both ways counts as correct
    SELECT contract_id, type, source_key, target_key, bool_or(verdict = 'correct') AS correct
    FROM dcr_annotations
    GROUP BY ALL
),
annotated AS (
    SELECT DISTINCT contract_id FROM dcr_annotations
),
graphs AS (
    -- every (extractor, annotated contract) it was asked about: a rejected or
    -- failed extraction misses every annotated relation
    SELECT DISTINCT g.extractor, g.contract_id
    FROM dcr_graphs g JOIN annotated a USING (contract_id)
),
extracted AS (
    SELECT DISTINCT r.extractor, r.contract_id, r.type, r.source_key, r.target_key
    FROM dcr_relations r JOIN annotated a USING (contract_id)
),
scored AS (
    SELECT e.extractor, e.type,
        CASE WHEN j.correct THEN 'tp' ELSE 'fp' END AS outcome,
        j.correct IS NULL AS unjudged
    FROM extracted e
    LEFT JOIN judgements j USING (contract_id, type, source_key, target_key)
    UNION ALL
    SELECT g.extractor, j.type, 'fn' AS outcome, false AS unjudged
    FROM graphs g
    JOIN judgements j ON j.contract_id = g.contract_id AND j.correct
    LEFT JOIN extracted e ON e.extractor = g.extractor AND e.contract_id = j.contract_id
        AND e.type = j.type AND e.source_key = j.source_key AND e.target_key = j.target_key
    WHERE e.extractor IS NULL
),
counts AS (
    SELECT extractor, coalesce(type, 'all') AS relation,
        count(*) FILTER (WHERE outcome = 'tp') AS tp,
        count(*) FILTER (WHERE outcome = 'fp') AS fp,
        count(*) FILTER (WHERE outcome = 'fn') AS fn,
        count(*) FILTER (WHERE unjudged) AS unjudged
    FROM scored
    GROUP BY GROUPING SETS ((extractor, type), (extractor))
),
types(relation, ord) AS (
    VALUES ('condition', 1), ('response', 2), ('include', 3), ('exclude', 4), ('all', 5)
),
grid AS (
    SELECT x.extractor, t.relation, t.ord
    FROM (SELECT DISTINCT extractor FROM graphs) x CROSS JOIN types t
)
SELECT
    g.extractor,
    g.relation,
    coalesce(c.tp, 0) AS tp,
    coalesce(c.fp, 0) AS fp,
    coalesce(c.fn, 0) AS fn,
    CAST(c.tp AS DOUBLE) / nullif(c.tp + c.fp, 0) AS precision,
    CAST(c.tp AS DOUBLE) / nullif(c.tp + c.fn, 0) AS recall,
    2.0 * c.tp / nullif(2 * c.tp + c.fp + c.fn, 0) AS f1,
    coalesce(c.unjudged, 0) AS unjudged
FROM grid g
LEFT JOIN counts c ON c.extractor = g.extractor AND c.relation = g.relation
ORDER BY g.extractor, g.ord;

COMMENT ON VIEW table3_dcr_validation IS 'Paper Table III: per extractor and relation type (condition, response, include, exclude, all), the extracted relations of the annotated contracts that the annotation judges correct (tp), that it judges incorrect or does not judge (fp; the unjudged ones are also counted in unjudged), and the correct relations the extractor did not emit (fn), with precision, recall and F1 (NULL when undefined). Relations are matched by type and event keys (<function>.<branch>). A rejected or failed extraction of an annotated contract misses all its relations.';
