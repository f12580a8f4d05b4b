package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A rerun with nothing to do leaves the DuckDB file as it is (the same file,
// not one built again and renamed into place): the views are built only when
// their definitions change. Its summary still reads them.
func TestNoOpRunKeepsTheViews(t *testing.T) {
	t.Parallel()
	ref := smallReference(t)
	data := t.TempDir()
	copyDir(t, ref.data, data)
	args := append(pipelineArgs, "--corpus", ref.corpus, "--data", data)
	runIn(t, args...) // the copied file reads the reference's warehouse: its dataset views are remade here
	dbPath := filepath.Join(data, "solbehave.duckdb")
	before, err := os.Stat(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	byStage, out := runLogged(t, args...)
	for stage, c := range byStage {
		if c.Ran > 0 {
			t.Errorf("%s ran %d units of a warehouse with nothing to do", stage, c.Ran)
		}
	}
	after, err := os.Stat(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(before, after) {
		t.Error("a run with nothing to do built the views again")
	}
	if !strings.Contains(out, "\nfig4_replay\n") {
		t.Errorf("the no-op run's summary shows no fig4_replay:\n%s", out)
	}
}
