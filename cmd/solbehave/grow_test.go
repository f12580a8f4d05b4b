package main

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// growRun is a small run of one generator up to O1 (vuln and the report
// add nothing the warehouse test needs, and take most of the time).
func growRun(t *testing.T, corpus, data, generator string) {
	t.Helper()
	args := append([]string{}, smallBudgetRun...)
	runIn(t, append(args, "--until", "o1", "--generator", generator, "--corpus", corpus, "--data", data)...)
}

// modelCounts are sample_verdicts rows per model, "model=n" sorted.
func modelCounts(t *testing.T, data string) string {
	t.Helper()
	return strings.Join(queryRows(t, data, "SELECT model || '=' || count(*) FROM sample_verdicts GROUP BY model ORDER BY model"), " ")
}

func modelDigest(t *testing.T, data, model string) string {
	t.Helper()
	out, err := solbehave(t, "digest", "--data", data, "--model", model)
	if err != nil {
		t.Fatalf("digest --model %s: %v\n%s", model, err, out)
	}
	return out
}

// TestRunsAddModelByModel is the warehouse issue's first point: a second
// run with another generator leaves the first model in every view and every
// one of its dataset digests as it was; a rerun of the first skips all of
// its units; forget removes one model and nothing else.
func TestRunsAddModelByModel(t *testing.T) {
	corpus, data := oneContractCorpus(t), t.TempDir()
	growRun(t, corpus, data, "mutant")
	mutant, first := modelDigest(t, data, "mutant"), modelCounts(t, data)
	if !strings.Contains(mutant, "replay_calls") || !strings.Contains(mutant, "fuzz_results") {
		t.Fatalf("digest --model lists no oracle dataset:\n%s", mutant)
	}
	growRun(t, corpus, data, "reference")
	both := modelCounts(t, data)
	if !strings.HasPrefix(both, first+" reference=") {
		t.Fatalf("sample_verdicts per model after two runs: %q, want %q and the reference", both, first)
	}
	if got := modelDigest(t, data, "mutant"); got != mutant {
		t.Fatalf("the reference run changed the mutant's rows:\nbefore\n%s\nafter\n%s", mutant, got)
	}
	for _, ds := range []string{"generations", "samples", "replay_calls", "fuzz_results"} {
		if n := queryRows(t, data, "SELECT count(DISTINCT model) FROM "+ds); n[0] != "2" {
			t.Errorf("%s: %s model(s) after two runs, want 2", ds, n[0])
		}
	}
	if got := strings.Join(queryRows(t, data, "SELECT models FROM runs ORDER BY started_at, run_id"), " "); got != `["mutant"] ["reference"]` {
		t.Errorf("runs.models of the two runs: %s", got)
	}
	status := statusOf(t, corpus, data, []string{"--generator", "reference"})
	if !strings.Contains(status, "model mutant: ") || !strings.Contains(status, "model reference: ") {
		t.Errorf("status does not name each model's runs:\n%s", status)
	}
	again := runIn(t, append(append([]string{}, smallBudgetRun...), "--until", "o1", "--generator", "mutant", "--corpus", corpus, "--data", data)...)
	for stage, c := range again {
		if c.Ran != 0 {
			t.Errorf("a rerun of the mutant ran %d %s unit(s), want none", c.Ran, stage)
		}
	}

	reference := modelDigest(t, data, "reference")
	out, err := solbehave(t, "forget", "--data", data, "--generator", "reference")
	if err != nil || !strings.Contains(out, "nothing removed") || modelCounts(t, data) != both {
		t.Fatalf("forget without --yes: %v\n%s", err, out)
	}
	if out, err := solbehave(t, "forget", "--data", data, "--generator", "nobody"); err == nil || !strings.Contains(err.Error(), "mutant, reference") {
		t.Fatalf("forget of an unknown model: %v\n%s", err, out)
	}
	if out, err := solbehave(t, "forget", "--data", data, "--generator", "reference", "--yes"); err != nil {
		t.Fatalf("forget --yes: %v\n%s", err, out)
	}
	if got := modelCounts(t, data); got != first {
		t.Fatalf("sample_verdicts per model after forget: %q, want the mutant alone", got)
	}
	if got := modelDigest(t, data, "mutant"); got != mutant {
		t.Fatalf("forget of the reference changed the mutant's rows")
	}
	// The reference comes back whole on its next run.
	growRun(t, corpus, data, "reference")
	if got := modelDigest(t, data, "reference"); got != reference {
		t.Fatalf("the reference rerun after forget differs from its first run:\n%s\n%s", reference, got)
	}
}

// TestQueryDuringRun is the second point: while a run waits in dcr (an LLM
// extractor whose endpoint has not answered yet), O2's rows are in the
// views and status says which stages are still running or to come.
func TestQueryDuringRun(t *testing.T) {
	bin := builtBinary(t)
	corpus, data := oneContractCorpus(t), t.TempDir()
	asked, release := make(chan struct{}, 16), make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked <- struct{}{}
		<-release
		http.Error(w, "no graph today", http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	defer func() {
		select {
		case <-release:
		default:
			close(release)
		}
	}()
	args := append(append([]string{}, smallBudgetRun...), "--until", "o3", "--generator", "mutant",
		"--extractor", "static,llm:m", "--reference-extractor", "static", "--llm-url", srv.URL+"/v1", "--llm-retries", "0",
		"--corpus", corpus, "--data", data)
	cmd := exec.Command(bin, args...)
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-asked:
	case <-time.After(10 * time.Minute):
		cmd.Process.Kill()
		t.Fatalf("the run never reached dcr's LLM:\n%s", log.String())
	}
	if n := queryRows(t, data, "SELECT count(*) FROM replay_calls WHERE oracle = 'O2'"); n[0] == "0" {
		t.Error("while dcr runs, the views read no O2 rows")
	}
	out, err := solbehave(t, "status", "--corpus", corpus, "--data", data, "--generator", "mutant")
	if err != nil || !strings.Contains(out, "o2 done") || !strings.Contains(out, "dcr running") || !strings.Contains(out, "o3 pending") {
		t.Errorf("status during the run: %v\n%s", err, out)
	}
	close(release)
	cmd.Wait() // the llm:m unit fails: the run reports it, and goes on
	if out, _ := solbehave(t, "status", "--corpus", corpus, "--data", data, "--generator", "mutant"); strings.Contains(out, "is writing this folder") {
		t.Errorf("status after the run still names it:\n%s", out)
	}
}

// TestReleaseTakesNewModel is the third point: a release written by
// publish (mutant and reference) takes a third generator in a new data
// folder: the views show all three, the published models' rows are the
// release's own, the contract-level rows the run recomputed are the ones
// published, and the new model's verdicts are those of the samples it
// imported (here the reference's own files).
func TestReleaseTakesNewModel(t *testing.T) {
	corpus, data := oneContractCorpus(t), t.TempDir()
	args := append(append([]string{}, smallBudgetRun...), "--until", "o1", "--corpus", corpus, "--data", data)
	runIn(t, append(args, "--generator", "mutant,reference")...)
	rel := filepath.Join(t.TempDir(), "release")
	if out, err := solbehave(t, "publish", "--creators", "Tester, Ada", "--data", data, "--corpus", corpus, "--out", rel); err != nil {
		t.Fatalf("publish: %v\n%s", err, out)
	}
	imports := t.TempDir()
	id := smallCorpusIDs[0]
	copyDir(t, filepath.Join(data, "samples", id, "reference"), filepath.Join(imports, id))

	next := t.TempDir()
	runIn(t, append(append([]string{}, smallBudgetRun...), "--until", "o1", "--from-release", rel, "--data", next,
		"--generator", "import:"+imports)...)
	if got := modelCounts(t, next); !strings.HasPrefix(got, "import:") || !strings.Contains(got, " mutant=") || !strings.Contains(got, " reference=") {
		t.Fatalf("sample_verdicts per model after the new model's run: %q, want three models", got)
	}
	for _, m := range []string{"mutant", "reference"} {
		if a, b := modelDigest(t, data, m), modelDigest(t, next, m); a != b {
			t.Errorf("%s: the imported rows differ from the published ones:\n%s\n%s", m, a, b)
		}
	}
	published, recomputed := digestLines(t, data), digestLines(t, next)
	for _, ds := range []string{"contracts", "verify_calls", "skeletons", "dcr_graphs", "sequence_calls", "coverage"} {
		if published[ds] == "" || published[ds] != recomputed[ds] {
			t.Errorf("%s: recomputed from the release's corpus %q, published %q", ds, recomputed[ds], published[ds])
		}
	}
	verdicts := "SELECT concat_ws('/', oracle, graph_setting, sample, divergent) AS v FROM sample_verdicts WHERE model = %s ORDER BY v"
	want := queryRows(t, next, fmt.Sprintf(verdicts, "'reference'"))
	if got := queryRows(t, next, fmt.Sprintf(verdicts, "'import:"+filepath.Base(imports)+"'")); strings.Join(got, " ") != strings.Join(want, " ") || len(got) == 0 {
		t.Errorf("the imported copy of the reference's samples has verdicts %v, the reference %v", got, want)
	}
	// A second run is a no-op: the import is not repeated, no unit reruns.
	again := runIn(t, append(append([]string{}, smallBudgetRun...), "--until", "o1", "--from-release", rel, "--data", next,
		"--generator", "import:"+imports)...)
	for stage, c := range again {
		if c.Ran != 0 {
			t.Errorf("the second run from the release ran %d %s unit(s)", c.Ran, stage)
		}
	}
	runIn(t, "run", "--quiet", "--only", "report", "--from-release", rel, "--data", next)
	page, err := os.ReadFile(filepath.Join(next, "report", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`data-table="model_runs"`, "<td>import:" + filepath.Base(imports) + "</td>", "<td>mutant</td>", "imported from the release"} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("the report does not name each model's provenance: no %q", want)
		}
	}
	if out, err := solbehave(t, "forget", "--data", next, "--generator", "mutant", "--yes"); err != nil {
		t.Fatalf("forget an imported model: %v\n%s", err, out)
	}
	if got := modelCounts(t, next); strings.Contains(got, "mutant") || !strings.Contains(got, "reference=") {
		t.Errorf("after forgetting the imported mutant: %q", got)
	}
}

// digestLines is `solbehave digest` as dataset -> sha256.
func digestLines(t *testing.T, data string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(digest(t, data)), "\n") {
		if ds, sum, ok := strings.Cut(line, " "); ok {
			out[ds] = sum
		}
	}
	return out
}
