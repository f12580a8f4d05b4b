-- vuln_ablation: SAEFUZZ Table 5 (ablations) on SmartBugs Curated: per detector profile, variant and class, detections and false positives
-- depends: vuln_runs, vuln_findings, vuln_labels
-- columns: profile, ablation, class, tp, fp, fn, tn, precision, recall, accuracy, contracts, labelled
-- columns: findings, judged, analysed, mean_instruction_coverage, valid_test_case_ratio
-- A file is a positive of a class when vuln_labels says so; it is detected when the variant reported the class for it.
-- Files that did not compile or deploy count as not detected. The `any` rows judge contracts (SAEFUZZ's "9 of 11 found,
-- 1 FP among 189 clean"): a contract labelled with some of the five classes is a TP when a finding names one of its
-- labelled classes, else an FN (findings of other classes do not count for it); an unlabelled contract is an FP with any
-- finding of a judged class, else a TN. A class is judged when some DASP category maps to it (vuln_labels.judged): not
-- frozen_ether, which no label of the dataset speaks of. An unjudged class's tp/fp/fn/tn (and the ratios) are NULL; its
-- findings are counted (`findings`: files where the variant reported the class) but never make a contract an FP.
-- A per-class fp is a file NOT LABELLED WITH THIS CLASS that the detector reported it on: SmartBugs' files carry one
-- category each and are often vulnerable in another, so it is not SAEFUZZ's false positive (a clean contract reported).
-- profile: saefuzz (SAEFUZZ §3 as written) or extended (this project's extensions); each profile's runs are scored alone.
CREATE OR REPLACE VIEW vuln_ablation AS
WITH runs AS (
    SELECT contract_id, profile, ablation, status, instruction_coverage, test_cases, valid_test_cases
    FROM vuln_runs
    WHERE subject = 'smartbugs'
),
found AS (
    SELECT DISTINCT contract_id, profile, ablation, class FROM vuln_findings WHERE subject = 'smartbugs'
),
judged AS (
    SELECT r.profile, r.ablation, l.class, l.contract_id, l.labelled, l.judged, f.contract_id IS NOT NULL AS detected
    FROM runs r
    JOIN vuln_labels l USING (contract_id)
    LEFT JOIN found f ON f.contract_id = l.contract_id AND f.profile = r.profile AND f.ablation = r.ablation AND f.class = l.class
),
per_contract AS (
    SELECT profile, ablation, 'any' AS class, contract_id, bool_or(labelled) AS labelled, true AS judged,
        CASE WHEN bool_or(labelled) THEN bool_or(labelled AND detected) ELSE bool_or(judged AND detected) END AS detected
    FROM judged
    GROUP BY profile, ablation, contract_id
),
counts AS (
    SELECT profile, ablation, class,
        count(*) AS contracts,
        count(*) FILTER (WHERE labelled) AS labelled,
        count(*) FILTER (WHERE detected) AS findings,
        bool_and(judged) AS judged,
        count(*) FILTER (WHERE labelled AND detected) AS tp,
        count(*) FILTER (WHERE NOT labelled AND detected) AS fp,
        count(*) FILTER (WHERE labelled AND NOT detected) AS fn,
        count(*) FILTER (WHERE NOT labelled AND NOT detected) AS tn
    FROM (SELECT * FROM judged UNION ALL SELECT * FROM per_contract)
    GROUP BY profile, ablation, class
),
scored AS (
    SELECT profile, ablation, class, contracts, labelled, findings, judged,
        CASE WHEN judged THEN tp END AS tp, CASE WHEN judged THEN fp END AS fp,
        CASE WHEN judged THEN fn END AS fn, CASE WHEN judged THEN tn END AS tn
    FROM counts
),
coverage AS (
    SELECT profile, ablation,
        count(*) FILTER (WHERE status = 'ok') AS analysed,
        avg(instruction_coverage ORDER BY instruction_coverage) FILTER (WHERE status = 'ok') AS mean_instruction_coverage,
        CAST(sum(valid_test_cases) AS DOUBLE) / nullif(sum(test_cases), 0) AS valid_test_case_ratio
    FROM runs
    GROUP BY profile, ablation
)
SELECT c.profile, c.ablation, c.class, c.tp, c.fp, c.fn, c.tn,
    CAST(c.tp AS DOUBLE) / nullif(c.tp + c.fp, 0) AS precision,
    CAST(c.tp AS DOUBLE) / nullif(c.tp + c.fn, 0) AS recall,
    CAST(c.tp + c.tn AS DOUBLE) / nullif(c.contracts, 0) AS accuracy,
    c.contracts, c.labelled, c.findings, c.judged, v.analysed, v.mean_instruction_coverage, v.valid_test_case_ratio
FROM scored c
JOIN coverage v USING (profile, ablation)
ORDER BY
    CASE c.profile WHEN 'saefuzz' THEN 0 WHEN 'extended' THEN 1 ELSE 2 END,
    CASE c.ablation WHEN 'none' THEN 0 WHEN 'no-static' THEN 1 WHEN 'random' THEN 2 WHEN 'opcode' THEN 3 ELSE 4 END,
    CASE c.class WHEN 'reentrancy' THEN 0 WHEN 'arithmetic' THEN 1 WHEN 'block_state' THEN 2
        WHEN 'delegatecall' THEN 3 WHEN 'frozen_ether' THEN 4 ELSE 5 END;

COMMENT ON VIEW vuln_ablation IS 'SAEFUZZ Table 5 on SmartBugs Curated: per profile (saefuzz: the paper as written; extended: this project''s extensions), ablation (none, no-static, random, opcode) and class (plus any: per contract), tp/fp/fn/tn (a class''s fp: files not labelled with this class that it was reported on), precision, recall, accuracy, files, labelled files, files with a finding, whether the labels judge the class (not frozen_ether: its tp/fp/fn/tn are NULL), files analysed, mean instruction coverage and valid test-case ratio of the variant.';
