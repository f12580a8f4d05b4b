-- vuln_detected: the detection rate per class: the share of detector runs (full detector, status ok) that report a finding of the class, on the originals and on each model's compiling samples, whether or not the original has it (vuln_introduced counts only the findings new to a sample)
-- depends: vuln_runs, vuln_findings
-- One detector profile: saefuzz (SAEFUZZ as written) where it ran, else extended (max(profile): 'saefuzz' > 'extended').
-- columns: subject, model, class, runs, with_finding, detected_rate
CREATE OR REPLACE VIEW vuln_detected AS
WITH runs AS (
    SELECT contract_id, subject, model, sample FROM vuln_runs
    WHERE status = 'ok' AND ablation = 'none' AND profile = (SELECT max(profile) FROM vuln_runs) AND subject IN ('original', 'sample')
),
found AS (
    SELECT DISTINCT contract_id, subject, model, sample, class FROM vuln_findings WHERE ablation = 'none' AND profile = (SELECT max(profile) FROM vuln_runs)
),
classes AS (
    SELECT class, class_order FROM (VALUES ('reentrancy', 0), ('arithmetic', 1), ('block_state', 2), ('delegatecall', 3),
        ('frozen_ether', 4)) AS t(class, class_order)
),
counted AS (
    SELECT r.subject, r.model, c.class, c.class_order, count(*) AS runs, count(f.class) AS with_finding,
        avg(CASE WHEN f.class IS NULL THEN 0.0 ELSE 1.0 END ORDER BY f.class IS NULL) AS detected_rate
    FROM runs r
    CROSS JOIN classes c
    LEFT JOIN found f ON f.contract_id = r.contract_id AND f.subject = r.subject AND f.model = r.model
        AND f.sample = r.sample AND f.class = c.class
    GROUP BY r.subject, r.model, c.class, c.class_order
)
SELECT subject, model, class, runs, with_finding, detected_rate
FROM counted
ORDER BY subject, model, class_order;

COMMENT ON VIEW vuln_detected IS 'Per subject (original, or sample with its model) and class: detector runs (full detector, status ok), runs with a finding of the class, and that share (detected_rate: the detection rate, 0-1; a sample''s finding counts whether or not its original has it, unlike vuln_introduced.introduced_rate).';
