-- vuln_eval: SAEFUZZ Table 4 (TP/FP/FN, precision, recall, accuracy) and the coverage and valid-test-case figures, on SmartBugs Curated with the full detector, per profile
-- depends: vuln_ablation
-- columns: profile, class, tp, fp, fp_counts, fn, precision, recall, accuracy, tn, contracts, labelled, findings, judged, analysed
-- columns: mean_instruction_coverage, valid_test_case_ratio, paper_figure
-- One row per profile (saefuzz: SAEFUZZ §3 as written, the default; extended: this project's extensions) and class, plus
-- `any` (per contract: a labelled one is found when a finding names one of its labelled classes; an unlabelled one is a
-- false positive with any finding of a judged class; see vuln_ablation). frozen_ether is not judged: no label of SmartBugs
-- Curated maps to it, so its tp/fp/fn/tn are NULL and `findings` counts the files it fired on.
-- fp is NOT SAEFUZZ's false positive: per class it counts files not labelled with this class that the detector reported it
-- on (SmartBugs' files labelled with one class are often vulnerable in another); on `any`, files labelled with none of the
-- classes. fp_counts says so on every row. paper_figure, on the saefuzz `any` row only, is SAEFUZZ's own Table 4 figure on
-- its own 200-contract dataset, shown beside ours as the paper's figure, not as a comparison.
-- accuracy = (tp + tn) / files; mean_instruction_coverage and valid_test_case_ratio are over the profile's run (same on
-- every row of a profile; paper: 84.07% and 93.48%).
CREATE OR REPLACE VIEW vuln_eval AS
SELECT profile, class, tp, fp,
    CASE WHEN class = 'any' THEN 'files labelled with no class' WHEN judged THEN 'files not labelled with this class' END AS fp_counts,
    fn, precision, recall, accuracy, tn, contracts, labelled, findings, judged, analysed,
    mean_instruction_coverage, valid_test_case_ratio,
    CASE WHEN profile = 'saefuzz' AND class = 'any'
        THEN 'SAEFUZZ paper, Table 4 (its own 200 contracts): 9 of 11 vulnerable detected, 1 false positive among 189 labelled non-vulnerable; 84.07% mean instruction coverage, 93.48% valid test cases'
    END AS paper_figure
FROM vuln_ablation
WHERE ablation = 'none';

COMMENT ON VIEW vuln_eval IS 'SAEFUZZ Table 4 on SmartBugs Curated (full detector) per profile (saefuzz: the paper as written; extended: this project''s extensions): per class and for any class, tp, fp (files not labelled with this class that it was reported on: not SAEFUZZ''s false positive; any: files labelled with no class), fp_counts (says so), fn, precision, recall, accuracy, tn, files, labelled files, files with a finding, judged (frozen_ether: not, its counts NULL), files analysed, mean instruction coverage, valid test-case ratio, and on the saefuzz any row the paper''s own figure (9 of 11 found, 1 FP among 189, 84.07%, 93.48%: its dataset, not a comparison).';
