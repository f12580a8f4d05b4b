-- paired_outcomes: dataset helper for model_differences (the paired comparison of models on the solbehave paper's headline rates: O1 contract equivalence, O2 and O3 divergence): for every pair of models and every contract both were evaluated on, each model's outcome from contract_outcomes
-- depends: contract_outcomes
-- columns: measure, oracle, graph_setting, profile, model_a, model_b, contract_id, hit_a, hit_b
CREATE OR REPLACE VIEW paired_outcomes AS
WITH headline AS MATERIALIZED (
    SELECT *
    FROM contract_outcomes
    WHERE measure = 'o1_contract_equivalent' OR (measure = 'divergent' AND oracle IN ('O2', 'O3'))
)
SELECT a.measure, a.oracle, a.graph_setting, a.profile, a.model AS model_a, b.model AS model_b, a.contract_id, a.hit AS hit_a, b.hit AS hit_b
FROM headline a
JOIN headline b USING (measure, oracle, graph_setting, profile, contract_id)
WHERE a.model < b.model;

COMMENT ON VIEW paired_outcomes IS 'Per headline measure (o1_contract_equivalent; divergent under O2 and under O3 per graph setting and profile), pair of models (model_a < model_b by name) and contract both models were evaluated on: hit_a and hit_b, each model''s outcome there (contract_outcomes).';
