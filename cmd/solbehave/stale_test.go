package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// statusOf runs `status --explain` with the stage flags of a run.
func statusOf(t *testing.T, corpus, data string, stageFlags []string) string {
	t.Helper()
	out, err := solbehave(t, append([]string{"status", "--explain", "--corpus", corpus, "--data", data}, stageFlags...)...)
	if err != nil {
		t.Fatalf("status: %v\n%s", err, out)
	}
	return out
}

// stageColumn is one stage's count in a column of `status` (1 done, 2
// stale, 3 failed, 4 pending).
func stageColumn(t *testing.T, out, stage string, col int) string {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) == 5 && f[0] == stage {
			return f[col]
		}
	}
	t.Fatalf("status has no row for %s:\n%s", stage, out)
	return ""
}

// TestStaleRowsNeverMix is the third point on one contract: after a
// complete run every unit is current (the report too) and the page names
// the run that drew it; a later run with fewer samples up to compile leaves
// the oracles' rows of the dropped sample on disk, but the views no longer
// read them, status calls those units stale, and publish refuses the folder
// unless --allow-stale, whose card lists them.
func TestStaleRowsNeverMix(t *testing.T) {
	corpus, data := oneContractCorpus(t), t.TempDir()
	flags := smallBudgetRun[2:] // the stage flags, --samples 2 first
	runIn(t, append(smallBudgetRun, "--corpus", corpus, "--data", data)...)
	out := statusOf(t, corpus, data, flags)
	if n := staleCount(t, out); n != 0 || strings.Contains(out, "\n  ") {
		t.Fatalf("after a complete run, %d unit(s) are stale:\n%s", n, out)
	}
	page, err := os.ReadFile(filepath.Join(data, "report", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	drawnBy := regexp.MustCompile(`data-run="([^"]+)"`).FindSubmatch(page)
	runs := queryRows(t, data, "SELECT run_id FROM runs")
	if drawnBy == nil || len(runs) != 1 || string(drawnBy[1]) != runs[0] {
		t.Fatalf("the report names run %q, the runs dataset holds %v", drawnBy, runs)
	}

	fewer := append([]string{"run", "--quiet", "--until", "compile", "--corpus", corpus, "--data", data}, flags...)
	runIn(t, append(fewer, "--samples", "1", "--repin", "samples=1")...) // k is the evaluation's: cut on purpose
	for _, ds := range []string{"samples", "replay_calls", "fuzz_results", "vuln_runs"} {
		if got := queryRows(t, data, "SELECT count(*) FROM "+ds+" WHERE sample >= 1"); got[0] != "0" {
			t.Errorf("%s: the views read %s row(s) of the dropped sample", ds, got[0])
		}
	}
	if parts, _ := filepath.Glob(filepath.Join(data, "warehouse", "fuzz_results", "*", "*.parquet")); len(parts) == 0 {
		t.Error("the stale fuzz_results parts were deleted; they should stay on disk")
	}
	out = statusOf(t, corpus, data, append(flags, "--samples", "1"))
	for _, stage := range []string{"o2", "o1"} {
		if stageColumn(t, out, stage, 2) == "0" {
			t.Errorf("status shows no stale %s unit after the samples changed:\n%s", stage, out)
		}
	}

	rel := filepath.Join(t.TempDir(), "release")
	if out, err := solbehave(t, "publish", "--creators", "Tester, Ada", "--data", data, "--corpus", corpus, "--out", rel); err == nil || !strings.Contains(err.Error(), "stale") {
		t.Fatalf("publish of a folder with stale units: %v\n%s", err, out)
	}
	rel = filepath.Join(t.TempDir(), "release")
	if out, err := solbehave(t, "publish", "--creators", "Tester, Ada", "--data", data, "--corpus", corpus, "--out", rel, "--allow-stale"); err != nil {
		t.Fatalf("publish --allow-stale: %v\n%s", err, out)
	}
	card, err := os.ReadFile(filepath.Join(rel, "README.md"))
	if err != nil || !regexp.MustCompile(`(?s)Stale or failed.*\n- o1 \S+: stale`).Match(card) {
		t.Errorf("the card does not list the stale units: %v", err)
	}
}
