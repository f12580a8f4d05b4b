package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/solbehave/solbehave/internal/etherscan"
	"github.com/solbehave/solbehave/internal/failure"
	"github.com/solbehave/solbehave/internal/faults"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

// pipelineArgs are the stages and budgets the robustness tests run: every
// stage that exists, with small budgets.
var pipelineArgs = smallBudgetRun

const demoCorpus = "../../data/corpus/demo"

// smallCorpus copies three demo contracts (both compilers, a Vault, a token
// and a staking pool) into a temporary corpus: the robustness tests run the
// whole pipeline many times, so they run it on fewer contracts.
func smallCorpus(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, id := range smallCorpusIDs {
		copyDir(t, filepath.Join(demoCorpus, id), filepath.Join(dir, id))
	}
	return dir
}

var smallCorpusIDs = []string{
	"Vault_0x4c9fd16cf84c1405a1a54a415446860e67a41b37",
	"GiftToken_0xb9554c2ee261c84d70d3c0d5543b0c35417b4ccf",
	"StakingPool_0x1416fcf7370593790bc72114987b9f59ba74785f",
}

// runIn runs the CLI in-process and returns the runner's counters per stage.
func runIn(t *testing.T, args ...string) map[string]pipeline.Counters {
	t.Helper()
	byStage, _ := runLogged(t, args...)
	return byStage
}

func digest(t *testing.T, data string) string {
	t.Helper()
	out, err := solbehave(t, "digest", "--data", data)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	if err := copyTree(src, dst); err != nil {
		t.Fatal(err)
	}
}

func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
}

// TestIncrementalRerunRecomputesOnlyTheChangedContract changes one contract's
// source in a copy of the small corpus whose warehouse is a copy of the
// reference run's: the rerun recomputes that contract's units in every stage
// and no other, and the warehouse then equals a from-scratch run on the
// changed corpus.
func TestIncrementalRerunRecomputesOnlyTheChangedContract(t *testing.T) {
	t.Parallel()
	ref := smallReference(t)
	corpus, data := smallCorpus(t), t.TempDir()
	copyDir(t, ref.data, data)

	vault := filepath.Join(corpus, "Vault_0x4c9fd16cf84c1405a1a54a415446860e67a41b37", "getsourcecode.json")
	b, _ := os.ReadFile(vault)
	changed := strings.Replace(string(b), "function deposit(uint256 amount) public {", "function deposit(uint256 amount) public { // changed", 1)
	if changed == string(b) {
		t.Fatal("could not change the Vault's source")
	}
	os.WriteFile(vault, []byte(changed), 0o644)

	second := runIn(t, append(pipelineArgs, "--corpus", corpus, "--data", data)...)
	if len(second) == 0 {
		t.Fatal("the rerun ran no stage")
	}
	for stage, c := range second {
		perContract := c.Units / len(smallCorpusIDs)
		if stage == "report" {
			perContract = 1 // one unit over the whole warehouse, which changed
		}
		if c.Ran != perContract {
			t.Errorf("%s: rerun ran %d units, want %d (the Vault's only); counters %+v", stage, c.Ran, perContract, c)
		}
	}
	fresh := t.TempDir()
	runIn(t, append(pipelineArgs, "--corpus", corpus, "--data", fresh)...)
	if a, b := digest(t, data), digest(t, fresh); a != b {
		t.Fatalf("incremental warehouse differs from a from-scratch run:\n%s\nvs\n%s", a, b)
	}
}

// TestDeterminismAndShards: a run with the same seed and one job at a time
// gives rows identical to the reference run's in every dataset, and so does
// running the corpus as 3 shards one after another.
func TestDeterminismAndShards(t *testing.T) {
	t.Parallel()
	ref := smallReference(t)
	b, sharded := t.TempDir(), t.TempDir()
	runIn(t, append(pipelineArgs, "--corpus", ref.corpus, "--data", b, "--jobs", "1")...)
	if db := digest(t, b); db != ref.digest {
		t.Fatalf("two runs differ:\n%s\nvs\n%s", ref.digest, db)
	}
	for i := 0; i < 3; i++ {
		runIn(t, append(pipelineArgs, "--corpus", ref.corpus, "--data", sharded, "--shard", fmt.Sprintf("%d/3", i))...)
	}
	if ds := digest(t, sharded); ds != ref.digest {
		t.Fatalf("3 shards differ from one run:\n%s\nvs\n%s", ds, ref.digest)
	}
	if !strings.Contains(ref.digest, "verify_calls ") {
		t.Fatalf("digest lists no verify_calls:\n%s", ref.digest)
	}
}

// TestKilledRunResumes SIGKILLs `solbehave run` at random moments, resumes it,
// and compares the warehouse with the uninterrupted reference run's.
func TestKilledRunResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the crash trials build the binary and run the pipeline several times")
	}
	t.Parallel()
	ref := smallReference(t)
	rng := rand.New(rand.NewPCG(42, 0))
	for trial := 0; trial < 3; trial++ {
		data := t.TempDir()
		kill := time.Duration(float64(ref.wall) * (0.1 + 0.8*rng.Float64()))
		runBin(t, ref.bin, ref.corpus, data, kill)
		runBin(t, ref.bin, ref.corpus, data, 0)
		if got := digest(t, data); got != ref.digest {
			t.Fatalf("trial %d (killed after %s): resumed warehouse differs:\n%s\nvs\n%s", trial, kill, got, ref.digest)
		}
		assertNoTempFiles(t, data)
	}
}

// runBin runs the binary to completion, or SIGKILLs it after killAfter.
func runBin(t *testing.T, bin, corpus, data string, killAfter time.Duration) {
	t.Helper()
	if err := runBinary(bin, corpus, data, killAfter); err != nil {
		t.Fatal(err)
	}
}

func assertNoTempFiles(t *testing.T, data string) {
	filepath.WalkDir(filepath.Join(data, "warehouse"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasSuffix(p, ".parquet") {
			t.Errorf("a finished run left %s", p)
		}
		return nil
	})
}

// TestSecretsNeverReachOutputs runs the live crawl with an API key against a
// local server that fails one request with an error echoing the URL, then
// looks for the key in every file the run wrote and in its log.
func TestSecretsNeverReachOutputs(t *testing.T) {
	const key = "sb-test-secret-4f1c9e"
	h, err := etherscan.RecordedHandler(demoCorpus)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("address") == "0x00000000000000000000000000000000000000ff" {
			http.Error(w, "upstream failed for "+r.URL.String(), http.StatusBadGateway)
			return
		}
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()
	t.Setenv("ETHERSCAN_API_KEY", key)
	t.Setenv("SOLBEHAVE_LLM_API_KEY", key)
	data := t.TempDir()
	root, _ := newRootWithGlobals()
	var log bytes.Buffer
	root.SetOut(&log)
	root.SetErr(&log)
	root.SetArgs([]string{"crawl", "--live", "--data", data, "--etherscan-url", srv.URL + "/v2/api?chainid=1&",
		"--etherscan-rate", "1000", "--addresses", "0x4c9fd16cf84c1405a1a54a415446860e67a41b37,0x00000000000000000000000000000000000000ff"})
	runErr := root.ExecuteContext(context.Background())
	if runErr == nil {
		t.Fatal("the failing request should make the run report a failed unit")
	}
	if strings.Contains(runErr.Error()+log.String(), key) {
		t.Fatalf("the key leaked into the run's output:\n%v\n%s", runErr, log.String())
	}
	found := 0
	filepath.WalkDir(data, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		found++
		if b, _ := os.ReadFile(p); bytes.Contains(b, []byte(key)) {
			t.Errorf("%s holds the API key", p)
		}
		return nil
	})
	// Parquet parts are compressed: look at their values through DuckDB.
	for _, d := range schemas.All() {
		rows, err := solbehave(t, "sql", "--data", data, "--format", "csv", "SELECT * FROM "+d.Name)
		if err != nil || strings.Contains(rows, key) {
			t.Errorf("dataset %s: err=%v, or its values hold the API key", d.Name, err)
		}
	}
	out, _ := solbehave(t, "errors", "--data", data, "--format", "csv")
	if found == 0 || !strings.Contains(out, "0x00000000000000000000000000000000000000ff") || strings.Contains(out, key) {
		t.Fatalf("want the failed request as an error row without the key; files=%d errors:\n%s", found, out)
	}
}

// TestFaultCorpusNeverStopsTheRun runs the pipeline on data/faults: every
// fault ends as a row with its reason, the sound contracts complete, and the
// exit status says that something failed.
func TestFaultCorpusNeverStopsTheRun(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	root, _ := newRootWithGlobals()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	// The fault corpus's histories are short: --min-txs 1 lets each fault reach the stage it is about.
	// Every fuzzed call of GasEater burns O1's whole gas limit: 20 calls per function reach
	// the same rows and reasons as 200 at a tenth of the time.
	root.SetArgs(append(append([]string{}, pipelineArgs...), "--corpus", "../../data/faults", "--data", data, "--min-txs", "1", "--o1-calls", "20"))
	err := root.ExecuteContext(context.Background())
	var fe *failedUnitsError
	if !errors.As(err, &fe) {
		t.Fatalf("want the run to finish reporting failed units, got %v\n%s", err, out.String())
	}
	rows, err := solbehave(t, "sql", "--data", data, "--format", "csv",
		"SELECT split_part(contract_id, '_0x', 1) AS name, reason_class, kept FROM reproducibility ORDER BY 1")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(rows), "\n")[1:] {
		f := strings.Split(line, ",")
		got[f[0]] = f[1] + "," + f[2]
	}
	for _, f := range faults.Expected {
		want := f.Class + ",false"
		if f.Class == "" {
			want = ",true"
		}
		if f.Class == failure.Input.String() {
			want = "" // rejected by the corpus reader: an error row of crawl, no contract row
		}
		if got[f.Name] != want {
			t.Errorf("%s (%s): reason_class,kept = %q, want %q", f.Name, f.Why, got[f.Name], want)
		}
	}
	proxies, _ := solbehave(t, "sql", "--data", data, "--format", "csv", "SELECT name FROM crawl_candidates WHERE proxy")
	if !strings.Contains(proxies, "UpgradeProxy") {
		t.Errorf("crawl should mark UpgradeProxy as a proxy:\n%s", proxies)
	}
	errs, _ := solbehave(t, "errors", "--data", data, "--format", "csv")
	for _, f := range faults.Expected {
		if f.Class != "" && f.Class != "proxy" && !strings.Contains(errs, f.Name) {
			t.Errorf("%s has no row in errors", f.Name)
		}
	}
}
