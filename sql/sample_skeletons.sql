-- sample_skeletons: dataset helper, solbehave paper §IV-B (every model's k samples from the same skeleton): the skeleton each sample was generated from beside its contract's current one
-- depends: generations, skeletons
-- columns: contract_id, model, sample, skeleton_sha256, current_skeleton_sha256, current
CREATE OR REPLACE VIEW sample_skeletons AS
WITH now AS (
    SELECT contract_id, min(skeleton_sha256) AS current_skeleton_sha256
    FROM skeletons
    GROUP BY contract_id
)
SELECT
    g.contract_id,
    g.model,
    g.sample,
    g.skeleton_sha256,
    now.current_skeleton_sha256,
    coalesce(g.skeleton_sha256 = now.current_skeleton_sha256, false) AS current
FROM generations g
LEFT JOIN now USING (contract_id)
ORDER BY g.contract_id, g.model, g.sample;

COMMENT ON VIEW sample_skeletons IS 'Per generated sample: the sha256 of the skeleton it was generated from (generations.skeleton_sha256), its contract''s current skeleton (skeletons.skeleton_sha256) and whether they are equal (current). The paper generates every model''s samples from one skeleton per contract (§IV-B); a sample whose skeleton is not current was made before the evaluation''s NatSpec model or regeneration scope was repinned, and publish refuses it.';
