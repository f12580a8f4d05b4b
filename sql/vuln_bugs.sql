-- vuln_bugs: per-bug recall on a labelled benchmark (SolidiFI's injected bugs; SmartBugs' labelled entries alike), per profile and class
-- depends: vuln_runs, vuln_sites, vuln_bug_labels
-- columns: profile, class, files, analysed_files, bugs, exploitable, found, missed, recall, not_exploitable, not_exploitable_found
-- columns: in_unanalysed_files, sites, sites_outside
-- One row per detector profile (ablation none) and class with labelled bugs. A bug (one entry of vulnerabilities.json, an
-- injected snippet in SolidiFI) is found when a vuln_sites row of its file, profile and class is attributed to it: one of
-- the site's source lines (solc's runtime source map of its evidence) is a bug line, or the function the completing
-- transaction called lies wholly inside the bug's lines (a snippet that adds a function). Bugs that cannot be exploited
-- dynamically (vuln_bug_labels.exploitable false: a send/transfer reentrancy, a time read never branched on or in a view
-- function) are counted apart (not_exploitable, not_exploitable_found) and are not in recall = found / exploitable.
-- Bugs of files that did not compile or deploy count as missed (in_unanalysed_files says how many). sites_outside counts
-- the distinct sites of the class attributed to no labelled bug of the file (findings a reader can check by hand: the
-- original code may hold real bugs).
CREATE OR REPLACE VIEW vuln_bugs AS
WITH runs AS (
    SELECT contract_id, profile, status = 'ok' AS ok FROM vuln_runs WHERE subject = 'smartbugs' AND ablation = 'none'
),
sites AS (
    SELECT contract_id, profile, class, function, pcs, CAST(lines AS INTEGER[]) AS lines, function_first, function_last
    FROM vuln_sites WHERE ablation = 'none'
),
bugs AS (
    SELECT contract_id, bug, class, exploitable, CAST(lines AS INTEGER[]) AS lines FROM vuln_bug_labels
),
attributed AS (
    SELECT b.contract_id, b.bug, s.profile, s.class, s.function, s.pcs
    FROM bugs b JOIN sites s ON s.contract_id = b.contract_id AND s.class = b.class
    WHERE list_has_any(s.lines, b.lines)
        OR (s.function_first > 0 AND list_contains(b.lines, CAST(s.function_first AS INTEGER))
            AND list_contains(b.lines, CAST(s.function_last AS INTEGER)))
),
judged AS (
    SELECT r.profile, b.class, b.contract_id, b.bug, b.exploitable, r.ok,
        EXISTS (SELECT 1 FROM attributed a WHERE a.contract_id = b.contract_id AND a.bug = b.bug AND a.profile = r.profile) AS found
    FROM bugs b JOIN runs r USING (contract_id)
),
outside AS (
    SELECT s.profile, s.class, count(*) AS sites,
        count(*) FILTER (WHERE NOT EXISTS (SELECT 1 FROM attributed a WHERE a.contract_id = s.contract_id AND a.profile = s.profile
            AND a.class = s.class AND a.function = s.function AND a.pcs = s.pcs)) AS sites_outside
    FROM sites s WHERE s.contract_id IN (SELECT contract_id FROM bugs)
    GROUP BY s.profile, s.class
)
SELECT j.profile, j.class,
    count(DISTINCT j.contract_id) AS files,
    count(DISTINCT j.contract_id) FILTER (WHERE j.ok) AS analysed_files,
    count(*) AS bugs,
    count(*) FILTER (WHERE j.exploitable) AS exploitable,
    count(*) FILTER (WHERE j.exploitable AND j.found) AS found,
    count(*) FILTER (WHERE j.exploitable AND NOT j.found) AS missed,
    CAST(count(*) FILTER (WHERE j.exploitable AND j.found) AS DOUBLE) / nullif(count(*) FILTER (WHERE j.exploitable), 0) AS recall,
    count(*) FILTER (WHERE NOT j.exploitable) AS not_exploitable,
    count(*) FILTER (WHERE NOT j.exploitable AND j.found) AS not_exploitable_found,
    count(*) FILTER (WHERE NOT j.ok) AS in_unanalysed_files,
    coalesce(max(o.sites), 0) AS sites, coalesce(max(o.sites_outside), 0) AS sites_outside
FROM judged j LEFT JOIN outside o ON o.profile = j.profile AND o.class = j.class
GROUP BY j.profile, j.class;

COMMENT ON VIEW vuln_bugs IS 'Per-bug recall on a labelled benchmark (SolidiFI: per injected bug) per profile and class: bugs, exploitable ones, found (a vuln_sites row whose source lines meet the bug''s lines, or whose called function lies inside them), missed, recall = found / exploitable, non-exploitable snippets apart (send/transfer reentrancy, time never branched on or in a view function), bugs in files not analysed, and sites outside every labelled bug (for a reader to check).';
