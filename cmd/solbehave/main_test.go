package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// solbehave runs the CLI in-process and returns what it printed.
func solbehave(t *testing.T, args ...string) (string, error) {
	t.Helper()
	root := newRoot()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(args)
	err := root.ExecuteContext(context.Background())
	return out.String(), err
}

// TestVerticalSlice is `make run` at the foundation's scope: compile the demo
// corpus with real solc, deploy, replay, write Parquet, build the DuckDB file,
// and read it back through `solbehave sql`.
// ndjsonArray turns `--format ndjson` output into one JSON array.
func ndjsonArray(out string) []byte {
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) == 1 && lines[0] == "" {
		return []byte("[]")
	}
	return []byte("[" + strings.Join(lines, ",") + "]")
}

func TestVerticalSlice(t *testing.T) {
	data := t.TempDir()
	corpus := filepath.Join("..", "..", "data", "corpus", "demo")
	if _, err := solbehave(t, "run", "--only", "verify", "--corpus", corpus, "--data", data, "--quiet"); err != nil {
		t.Fatal(err)
	}
	out, err := solbehave(t, "sql", "--data", data, "--format", "csv",
		"SELECT count(*) AS kept, sum(replayed) AS replayed, sum(reproduced) AS reproduced FROM reproducibility WHERE kept")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(out); got != "kept,replayed,reproduced\n12,2400,2400" {
		t.Fatalf("demo corpus: want all 12 contracts but the proxy kept with 200/200 reproduced, got:\n%s", got)
	}
	out, err = solbehave(t, "sql", "--data", data, "--format", "json", "SELECT count(*) AS n FROM verify_calls")
	if err != nil || !strings.Contains(out, `"n": 2400`) && !strings.Contains(out, `"n":2400`) {
		t.Fatalf("verify_calls through DuckDB: %v\n%s", err, out)
	}
}

func TestStagesAndUnknownStage(t *testing.T) {
	out, err := solbehave(t, "stages")
	if err != nil || !strings.Contains(out, "verify") {
		t.Fatalf("stages: %v\n%s", err, out)
	}
	if _, err := solbehave(t, "run", "--until", "nonsense", "--data", t.TempDir()); err == nil {
		t.Fatal("an unknown stage must be an error")
	}
}

// Every job gets a compiler worker of its own: with the solc pool's default
// of two, --jobs 16 would leave fourteen jobs queueing for compiles.
func TestSolcWorkersFollowJobs(t *testing.T) {
	for _, jobs := range []int{1, 2, 16} {
		g := &globals{jobs: jobs}
		if got := g.env().Engines.SolcOptions.MaxWorkers; got != max(2, jobs) {
			t.Errorf("--jobs %d: %d solc workers, want %d", jobs, got, max(2, jobs))
		}
	}
}
