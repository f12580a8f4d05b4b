-- vuln_introduced: the introduced-vulnerability rate of regenerated code (SolEval's measure, dynamically with evidence): per model and class, the share of compiling samples with a finding their original does not have (vuln_detected counts every finding instead)
-- depends: vuln_runs, vuln_findings
-- One detector profile: saefuzz (SAEFUZZ as written) where it ran, else extended (max(profile): 'saefuzz' > 'extended').
-- columns: model, class, compiling, analysed, with_new_finding, introduced_rate
-- Denominator: every compiling sample the vuln stage ran on (deploy failures included); numerator: those with a finding of
-- the class (full detector) that the original's run does not report. The `any` row counts samples with at least one such class.
CREATE OR REPLACE VIEW vuln_introduced AS
WITH samples AS (
    SELECT contract_id, model, sample, status FROM vuln_runs WHERE subject = 'sample' AND ablation = 'none' AND profile = (SELECT max(profile) FROM vuln_runs)
),
original AS (
    SELECT DISTINCT contract_id, class FROM vuln_findings WHERE subject = 'original' AND ablation = 'none' AND profile = (SELECT max(profile) FROM vuln_runs)
),
introduced AS (
    SELECT DISTINCT f.contract_id, f.model, f.sample, f.class
    FROM vuln_findings f
    LEFT JOIN original o ON o.contract_id = f.contract_id AND o.class = f.class
    WHERE f.subject = 'sample' AND f.ablation = 'none' AND profile = (SELECT max(profile) FROM vuln_runs) AND o.contract_id IS NULL
),
classes AS (
    SELECT unnest(['reentrancy', 'arithmetic', 'block_state', 'delegatecall', 'frozen_ether', 'any']) AS class
),
totals AS (
    SELECT model, count(*) AS compiling, count(*) FILTER (WHERE status = 'ok') AS analysed FROM samples GROUP BY model
),
hits AS (
    SELECT model, class, count(*) AS with_new_finding FROM introduced GROUP BY model, class
    UNION ALL
    SELECT model, 'any', count(DISTINCT contract_id || '/' || CAST(sample AS VARCHAR)) FROM introduced GROUP BY model
)
SELECT t.model, c.class, t.compiling, t.analysed, coalesce(h.with_new_finding, 0) AS with_new_finding,
    CAST(coalesce(h.with_new_finding, 0) AS DOUBLE) / t.compiling AS introduced_rate
FROM totals t
CROSS JOIN classes c
LEFT JOIN hits h ON h.model = t.model AND h.class = c.class
ORDER BY t.model,
    CASE c.class WHEN 'reentrancy' THEN 0 WHEN 'arithmetic' THEN 1 WHEN 'block_state' THEN 2
        WHEN 'delegatecall' THEN 3 WHEN 'frozen_ether' THEN 4 ELSE 5 END;

COMMENT ON VIEW vuln_introduced IS 'Per model and class (plus any): compiling samples, samples analysed, samples with a vulnerability finding their original lacks, and that share (introduced_rate: the introduced-vulnerability rate, 0-1; not the detection rate of vuln_detected). Full detector only.';
