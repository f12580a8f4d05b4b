-- control_models: dataset helper, the models the control generators make (mutant, reference): reported beside the LLM models, never inside an aggregate "over the models"
-- depends: samples
-- columns: model, generator
CREATE OR REPLACE VIEW control_models AS
SELECT DISTINCT model, generator
FROM samples
WHERE generator IN ('mutant', 'reference')
ORDER BY model;

COMMENT ON VIEW control_models IS 'The models whose samples the control generators make (generator mutant or reference; a model name per generator, the default generators of every run). A view that aggregates over the models (Table VII''s mean and range, oracle_agreement''s rank correlation, the wall seconds per contract, paper_claims'' ranges and counts) leaves these out: model NOT IN (SELECT model FROM control_models); the per-model views keep their rows beside the models''.';
