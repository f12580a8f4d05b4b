-- vuln_eval: SAEFUZZ Table 4 (TP/FP/FN, precision, recall, accuracy) and the coverage and valid-test-case figures, on SmartBugs Curated with the full detector
-- depends: vuln_ablation
-- columns: class, tp, fp, fn, precision, recall, accuracy, tn, contracts, labelled, findings, judged, analysed
-- columns: mean_instruction_coverage, valid_test_case_ratio
-- One row per class, plus `any` (per contract: a labelled one is found when a finding names one of its labelled classes;
-- an unlabelled one is a false positive with any finding of a judged class; see vuln_ablation). frozen_ether is not judged:
-- no label of SmartBugs Curated maps to it, so its tp/fp/fn/tn are NULL and `findings` counts the files it fired on.
-- accuracy = (tp + tn) / files; mean_instruction_coverage and valid_test_case_ratio are over the whole run (same on every row).
CREATE OR REPLACE VIEW vuln_eval AS
SELECT class, tp, fp, fn, precision, recall, accuracy, tn, contracts, labelled, findings, judged, analysed,
    mean_instruction_coverage, valid_test_case_ratio
FROM vuln_ablation
WHERE ablation = 'none';

COMMENT ON VIEW vuln_eval IS 'SAEFUZZ Table 4 on SmartBugs Curated (full detector): per class and for any class, tp, fp, fn, precision, recall, accuracy, tn, files, labelled files, files with a finding, judged (frozen_ether: not, its counts NULL), files analysed, mean instruction coverage, valid test-case ratio. Anchors: SAEFUZZ 9/11 found, 1 FP among 189 clean, 84.07% instruction coverage, 93.48% valid test cases.';
