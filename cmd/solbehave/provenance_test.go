package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/solbehave/solbehave/cmd/solbehave/release"
	"github.com/solbehave/solbehave/pipeline"
)

// runLogged runs the CLI in-process and returns its counters per stage and
// everything it printed (logs included).
func runLogged(t *testing.T, args ...string) (map[string]pipeline.Counters, string) {
	t.Helper()
	root, g := newRootWithGlobals()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(args)
	if err := root.ExecuteContext(context.Background()); err != nil {
		t.Fatalf("solbehave %s: %v\n%s", strings.Join(args, " "), err, out.String())
	}
	byStage := map[string]pipeline.Counters{}
	for _, c := range g.counters {
		byStage[c.Stage] = c
	}
	return byStage, out.String()
}

func writeConfig(t *testing.T, dir, text string) string {
	t.Helper()
	path := filepath.Join(dir, "solbehave.toml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func oneContractCorpus(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	id := smallCorpusIDs[0]
	copyDir(t, filepath.Join(demoCorpus, id), filepath.Join(dir, id))
	return dir
}

// provenanceBase is the small configuration of the provenance tests (up to o2).
const provenanceBase = "samples = 1\ngenerator = [\"mutant\"]\nverify-budget = 40\n" +
	"rpc = \"http://user:sekrit@127.0.0.1:1/rpc\"\n"

// TestConfigFileKeepsParameters is the first, second and fourth
// checks: a run at --o2-budget 30, then `run` with no flags re-runs nothing
// when solbehave.toml says 30 (and status shows nothing stale), re-runs o2
// when it says otherwise and says why; status --explain names the
// parameter; runs has one row per run that ran units, whose parameters are
// `solbehave config`'s output, with no secret.
func TestConfigFileKeepsParameters(t *testing.T) {
	t.Setenv("SOLBEHAVE_LLM_API_KEY", "llm-key-marker")
	corpus, data, dir := oneContractCorpus(t), t.TempDir(), t.TempDir()
	base := []string{"--corpus", corpus, "--data", data}
	until := append([]string{"run", "--until", "o2"}, base...)

	first := writeConfig(t, dir, provenanceBase)
	c, _ := runLogged(t, append(until, "--config", first, "--o2-budget", "30", "--quiet")...)
	if c["o2"].Ran != 2 { // the original's coverage, the mutant's rows
		t.Fatalf("first run: o2 ran %d units, want 2", c["o2"].Ran)
	}

	same := writeConfig(t, t.TempDir(), provenanceBase+"o2-budget = 30\n")
	c, _ = runLogged(t, append(until, "--config", same)...)
	for stage, sc := range c {
		if sc.Ran != 0 {
			t.Errorf("toml says 30: %s ran %d units, want none", stage, sc.Ran)
		}
	}
	out, err := solbehave(t, append([]string{"status", "--config", same, "--explain"}, base...)...)
	if err != nil {
		t.Fatalf("status: %v\n%s", err, out)
	}
	if n := staleCount(t, out); n != 0 {
		t.Fatalf("status shows %d stale units after a complete run with its own configuration:\n%s", n, out)
	}

	// The folder pins the first run's budget: status takes it where nothing is said ...
	out, _ = solbehave(t, append([]string{"status", "--config", first, "--explain"}, base...)...)
	if n := staleCount(t, out); n != 0 {
		t.Fatalf("status without a budget does not take the folder's pinned one:\n%s", out)
	}
	// ... and names the parameter against another one.
	out, _ = solbehave(t, append([]string{"status", "--config", first, "--explain", "--o2-budget", "1000"}, base...)...)
	if !strings.Contains(out, "o2-budget 30 → 1000") {
		t.Fatalf("status --explain against the default budget does not name o2-budget:\n%s", out)
	}

	other := writeConfig(t, t.TempDir(), provenanceBase+"o2-budget = 35\n")
	if _, err := solbehave(t, append(until, "--config", other)...); err == nil || !strings.Contains(err.Error(), "o2-budget is pinned to 30") {
		t.Fatalf("a run whose configuration changes a pinned budget: %v", err)
	}
	c, logs := runLogged(t, append(until, "--config", other, "--repin", "o2-budget=35")...)
	if c["o2"].Ran != 2 || c["verify"].Ran != 0 || c["compile"].Ran != 0 {
		t.Fatalf("toml says 35: want o2 (only) re-run, got %+v", c)
	}
	if !strings.Contains(logs, "o2-budget 30 → 35") {
		t.Fatalf("the re-run of o2 does not say why:\n%s", logs)
	}

	runs := queryRows(t, data, "SELECT parameters FROM runs ORDER BY started_at, run_id")
	if len(runs) != 2 {
		t.Fatalf("runs has %d rows, want 2 (one per run that ran units)", len(runs))
	}
	want, err := solbehave(t, append([]string{"config", "--format", "json", "--config", other}, base...)...)
	if err != nil {
		t.Fatal(err)
	}
	var got, exp map[string]any
	if json.Unmarshal([]byte(runs[1]), &got) != nil || json.Unmarshal([]byte(want), &exp) != nil || !reflect.DeepEqual(got, exp) {
		t.Fatalf("runs.parameters differ from `solbehave config`:\n%s\n%s", runs[1], want)
	}
	if got["o2-budget"] != float64(35) || got["samples"] != float64(1) {
		t.Fatalf("recorded parameters: o2-budget %v samples %v", got["o2-budget"], got["samples"])
	}
	for _, secret := range []string{"sekrit", "llm-key-marker"} {
		if strings.Contains(strings.Join(runs, " "), secret) {
			t.Fatalf("a secret (%s) is in runs.parameters", secret)
		}
	}
}

// staleCount sums the stale column of `solbehave status`.
func staleCount(t *testing.T, out string) int {
	t.Helper()
	n := 0
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) == 5 && f[0] != "stage" {
			var v int
			if _, err := fmt.Sscan(f[2], &v); err == nil {
				n += v
			}
		}
	}
	return n
}

// queryRows returns the first column of a query over the data folder.
func queryRows(t *testing.T, data, query string) []string {
	t.Helper()
	out, err := solbehave(t, "sql", "--data", data, "--format", "json", query)
	if err != nil {
		t.Fatalf("%s: %v\n%s", query, err, out)
	}
	var rows []map[string]any
	if err := json.Unmarshal(ndjsonArray(out), &rows); err != nil {
		t.Fatalf("%s: %v\n%s", query, err, out)
	}
	var vals []string
	for _, r := range rows {
		for _, v := range r {
			vals = append(vals, fmt.Sprint(v))
		}
	}
	return vals
}

// TestPublishRelease is the third check on a small run: the release
// has under 100 files, verifies, names no folder of this machine (decoded),
// opens from anywhere, lists every dataset with its fields; its rows join to
// their run; a dataset made with two values of a parameter stops publish
// unless --allow-mixed; --archive writes one .tar.zst.
func TestPublishRelease(t *testing.T) {
	corpus, data := smallCorpus(t), t.TempDir()
	base := []string{"--corpus", corpus, "--data", data, "--quiet"}
	runLogged(t, append([]string{"run", "--until", "o2", "--samples", "1", "--generator", "mutant", "--verify-budget", "40", "--o2-budget", "30"}, base...)...)
	out := filepath.Join(t.TempDir(), "release")
	if msg, err := solbehave(t, "publish", "--creators", "Tester, Ada", "--data", data, "--corpus", corpus, "--out", out, "--archive"); err != nil {
		t.Fatalf("publish: %v\n%s", err, msg)
	}
	if err := release.Check(out); err != nil {
		t.Fatal(err)
	}
	n := 0
	filepath.WalkDir(out, func(_ string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return err
	})
	if n >= 100 {
		t.Fatalf("release has %d files, want < 100", n)
	}
	if _, err := os.Stat(out + ".tar.zst"); err != nil {
		t.Fatal("no archive:", err)
	}
	// Checked independently of publish: every decoded cell and text file.
	if err := release.CheckNoLocalPaths(context.Background(), out, []string{data, corpus}); err != nil {
		t.Fatal(err)
	}
	joined := queryRows(t, out, "SELECT count(*) FILTER (WHERE r.run_id IS NULL) FROM replay_calls c LEFT JOIN runs r USING (run_id)")
	if len(joined) != 1 || joined[0] != "0" {
		t.Fatalf("replay_calls rows without their run: %v", joined)
	}
	var pkg struct{ Resources []struct{ Name string } }
	if err := release.ReadJSON(filepath.Join(out, "datapackage.json"), &pkg); err != nil || len(pkg.Resources) == 0 {
		t.Fatalf("datapackage: %v", err)
	}

	// o2 again at another budget on one shard's contracts: o2's rows now mix budgets.
	c, _ := runLogged(t, append([]string{"run", "--only", "o2", "--repin", "o2-budget=20", "--shard", "0/2"}, base...)...)
	if c["o2"].Ran == 0 || c["o2"].Units == len(smallCorpusIDs) {
		t.Skipf("shard 0/2 holds all or none of the contracts (%+v)", c["o2"])
	}
	msg, err := solbehave(t, "publish", "--creators", "Tester, Ada", "--data", data, "--corpus", corpus, "--out", filepath.Join(t.TempDir(), "mixed"))
	if err == nil || !strings.Contains(err.Error(), "o2-budget = 20 | 30") {
		t.Fatalf("a dataset mixing o2-budget 20 and 30 was published: %v\n%s", err, msg)
	}
	allowed := filepath.Join(t.TempDir(), "allowed")
	if msg, err := solbehave(t, "publish", "--creators", "Tester, Ada", "--data", data, "--corpus", corpus, "--out", allowed, "--allow-mixed"); err != nil {
		t.Fatalf("--allow-mixed: %v\n%s", err, msg)
	}
	if b, _ := os.ReadFile(filepath.Join(allowed, "README.md")); !strings.Contains(string(b), "o2-budget = 20 | 30") {
		t.Fatal("the datasheet does not say which parameter is mixed")
	}
}
