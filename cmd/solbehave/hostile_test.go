package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/solbehave/solbehave/cmd/solbehave/release"
	"github.com/solbehave/solbehave/internal/etherscan"
	"github.com/solbehave/solbehave/internal/llm/llmtest"
	"github.com/solbehave/solbehave/internal/redact"
	"github.com/solbehave/solbehave/internal/views"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

const (
	vaultID = "Vault_0x4c9fd16cf84c1405a1a54a415446860e67a41b37"
	giftID  = "GiftToken_0xb9554c2ee261c84d70d3c0d5543b0c35417b4ccf"
	stakeID = "StakingPool_0x1416fcf7370593790bc72114987b9f59ba74785f"
)

// hostileCorpus is a corpus of one sound contract and folders that used to
// lose data or break the warehouse: two names of one address that clean to
// the same id, case-only twins, a name that is not UTF-8, an address that is
// not hex, and a folder without its source.
func hostileCorpus(t *testing.T) (dir string, hostile []string) {
	dir = t.TempDir()
	copyDir(t, filepath.Join(demoCorpus, vaultID), filepath.Join(dir, vaultID))
	gift := strings.TrimPrefix(giftID, "GiftToken_")
	stake := strings.TrimPrefix(stakeID, "StakingPool_")
	hostile = []string{"Dup X_" + gift, "Dup_X_" + gift, "Stake_" + stake, "Stake_0x" + strings.ToUpper(stake[2:]),
		"Bad\xff\xfeName_0x00000000000000000000000000000000000000b1", "NotHex_0x00000000000000000000000000000000000000zz"}
	for i, f := range hostile {
		src := giftID
		if i >= 2 {
			src = stakeID
		}
		copyDir(t, filepath.Join(demoCorpus, src), filepath.Join(dir, f))
	}
	noSource := "NoSource_0x00000000000000000000000000000000000000b2"
	copyDir(t, filepath.Join(demoCorpus, stakeID), filepath.Join(dir, noSource))
	os.Remove(filepath.Join(dir, noSource, "getsourcecode.json"))
	return dir, append(hostile, noSource)
}

// TestHostileCorpusFoldersAreErrorRows: every hostile folder is an error row
// of class input naming its folder (and the other folder of its address);
// no row is lost (one candidate row per folder); the sound contract goes on;
// the warehouse stays usable (sql, digest); the exit status says so.
func TestHostileCorpusFoldersAreErrorRows(t *testing.T) {
	corpus, hostile := hostileCorpus(t)
	data := t.TempDir()
	_, err := solbehave(t, "run", "--only", "crawl", "--quiet", "--corpus", corpus, "--data", data)
	var fe *failedUnitsError
	if !errors.As(err, &fe) || fe.n != len(hostile) {
		t.Fatalf("want %d failed units, got %v", len(hostile), err)
	}
	out, err := solbehave(t, "sql", "--data", data, "--format", "json",
		"SELECT e.message, e.class, c.reason FROM errors e JOIN crawl_candidates c USING (contract_id) ORDER BY 1")
	if err != nil {
		t.Fatalf("the warehouse is not usable: %v", err)
	}
	var rows []struct{ Message, Class, Reason string }
	if err := json.Unmarshal(ndjsonArray(out), &rows); err != nil || len(rows) != len(hostile) {
		t.Fatalf("want %d error rows joined to their candidate rows, got %v:\n%s", len(hostile), err, out)
	}
	for _, f := range hostile {
		n := 0
		for _, r := range rows {
			if strings.Contains(r.Message, etherscan.Printable(f)) && r.Class == "input" && strings.HasPrefix(r.Reason, "input: ") {
				n++
			}
		}
		want := 1
		if strings.HasPrefix(f, "Dup") || strings.HasPrefix(f, "Stake") {
			want = 2 // its own row and its twin's both name it
		}
		if n != want {
			t.Errorf("folder %q is named by %d error rows, want %d:\n%s", f, n, want, out)
		}
	}
	count, _ := solbehave(t, "sql", "--data", data, "--format", "csv", "SELECT count(*) AS n, count(*) FILTER (passed) AS passed FROM crawl_candidates")
	if want := fmt.Sprintf("n,passed\n%d,1", len(hostile)+1); strings.TrimSpace(count) != want {
		t.Errorf("crawl_candidates: got %q, want %q (a row per folder, the Vault passed)", strings.TrimSpace(count), want)
	}
	if d := digest(t, data); !strings.Contains(d, "errors ") {
		t.Errorf("digest does not cover the errors:\n%s", d)
	}
}

// TestRerunExitsTwoWhileFailuresRemain: a rerun that has nothing to do (the
// failure is not retriable, so it is skipped) still reports the failed unit
// of its scope.
func TestRerunExitsTwoWhileFailuresRemain(t *testing.T) {
	corpus, data := t.TempDir(), t.TempDir()
	const malformed = "MalformedAnswer_0xc6634d9cb4536c2dc74076b4c97374f97e5aaaaa"
	copyDir(t, filepath.Join("../../data/faults", malformed), filepath.Join(corpus, malformed))
	copyDir(t, filepath.Join(demoCorpus, vaultID), filepath.Join(corpus, vaultID))
	var fe *failedUnitsError
	for run := 1; run <= 2; run++ {
		root, g := newRootWithGlobals()
		root.SetOut(io.Discard)
		root.SetArgs([]string{"crawl", "--quiet", "--corpus", corpus, "--data", data})
		err := root.ExecuteContext(t.Context())
		if !errors.As(err, &fe) || fe.n != 1 {
			t.Fatalf("run %d: want the 1 failed unit reported (exit 2), got %v", run, err)
		}
		if run == 2 && (g.counters[0].Ran != 0 || g.counters[0].KeptFailed != 1) {
			t.Fatalf("the rerun should run nothing and keep the failure: %+v", g.counters[0])
		}
	}
}

// TestSecondWriterIsRefusedReadersAreNot: while a run holds the crawl stage,
// a second crawl of the folder exits 1 naming the holder; sql, status and
// digest work; another shard of a sharded run proceeds.
func TestSecondWriterIsRefusedReadersAreNot(t *testing.T) {
	data := t.TempDir()
	if _, err := solbehave(t, "crawl", "--quiet", "--corpus", demoCorpus, "--data", data); err != nil {
		t.Fatal(err)
	}
	release, err := pipeline.LockStages(data, pipeline.Shard{}, []string{"crawl"}, "solbehave run --samples 10")
	if err != nil {
		t.Fatal(err)
	}
	_, err = solbehave(t, "crawl", "--quiet", "--force", "--corpus", demoCorpus, "--data", data)
	var le *pipeline.LockedError
	var fe *failedUnitsError
	if !errors.As(err, &le) || errors.As(err, &fe) || !strings.Contains(err.Error(), fmt.Sprint(os.Getpid())) ||
		!strings.Contains(err.Error(), "--samples 10") {
		t.Fatalf("want the second writer refused (exit 1) with the holder's pid and command, got %v", err)
	}
	for _, args := range [][]string{{"sql", "SELECT count(*) FROM crawl_candidates"}, {"status", "--corpus", demoCorpus}, {"digest"}} {
		if _, err := solbehave(t, append(args, "--data", data)...); err != nil {
			t.Errorf("%s while a run holds the folder: %v", args[0], err)
		}
	}
	release()
	shard1, err := pipeline.LockStages(data, pipeline.Shard{I: 1, N: 2}, []string{"crawl"}, "shard 1")
	if err != nil {
		t.Fatal(err)
	}
	defer shard1()
	if _, err := solbehave(t, "crawl", "--quiet", "--shard", "0/2", "--corpus", demoCorpus, "--data", data); err != nil {
		t.Fatalf("shard 0 beside shard 1: %v", err)
	}
}

// TestSQLCannotWriteTheWarehouse: `solbehave sql` runs reading queries only:
// a COPY over a part of the warehouse, a COPY or EXPORT anywhere, INSTALL,
// LOAD, and a reading query followed by a COPY are refused, the part stays
// as it was and nothing is written; neither `sql --out` nor `export --out`
// writes into the data folder, however the path reaches it; a result file
// outside it is written.
func TestSQLCannotWriteTheWarehouse(t *testing.T) {
	corpus, data, outside := t.TempDir(), t.TempDir(), t.TempDir()
	copyDir(t, filepath.Join(demoCorpus, vaultID), filepath.Join(corpus, vaultID))
	if _, err := solbehave(t, "crawl", "--quiet", "--corpus", corpus, "--data", data); err != nil {
		t.Fatal(err)
	}
	parts, _ := filepath.Glob(filepath.Join(data, "warehouse", "crawl_candidates", "*", "*.parquet"))
	if len(parts) != 1 {
		t.Fatalf("want one crawl part, got %v", parts)
	}
	before, _ := os.ReadFile(parts[0])
	for _, q := range []string{"COPY (SELECT * FROM crawl_candidates WHERE false) TO '" + parts[0] + "' (FORMAT parquet)",
		"COPY crawl_candidates TO '" + filepath.Join(outside, "c.csv") + "'", "EXPORT DATABASE '" + filepath.Join(outside, "db") + "'",
		"INSTALL httpfs", "LOAD httpfs", "SELECT 1; COPY (SELECT 1) TO '" + filepath.Join(outside, "d.csv") + "'",
		"ATTACH '" + filepath.Join(outside, "a.duckdb") + "'", "DROP VIEW crawl_candidates"} {
		if _, err := solbehave(t, "sql", "--data", data, q); !errors.Is(err, views.ErrNotReadOnly) {
			t.Errorf("%.50q: want it refused as not read-only, got %v", q, err)
		}
	}
	if after, _ := os.ReadFile(parts[0]); !bytes.Equal(before, after) {
		t.Error("a query changed a part of the warehouse")
	}
	os.Symlink(data, filepath.Join(outside, "link"))
	for _, args := range [][]string{{"sql", "--out", filepath.Join(data, "x.csv"), "SELECT 1"},
		{"sql", "--out", filepath.Join(outside, "..", filepath.Base(outside), "link", "new", "x.csv"), "SELECT 1"},
		{"sql", "--format", "parquet", "--out", parts[0], "SELECT * FROM crawl_candidates"},
		{"export", "crawl_candidates", "--out", filepath.Join(data, "warehouse", "crawl_candidates", "x.parquet")}} {
		if _, err := solbehave(t, append(args, "--data", data)...); err == nil || !strings.Contains(err.Error(), "inside the data folder") {
			t.Errorf("%q: want it refused as inside the data folder, got %v", args, err)
		}
	}
	if after, _ := os.ReadFile(parts[0]); !bytes.Equal(before, after) {
		t.Error("an --out changed a part of the warehouse")
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 1 {
		t.Errorf("refused commands wrote %v", entries)
	}
	if _, err := solbehave(t, "export", "crawl_candidates", "--data", data, "--out", filepath.Join(outside, "c.parquet")); err != nil {
		t.Errorf("export outside the data folder: %v", err)
	}
}

// TestDataFolderWithGlobCharacters: a data folder named with DuckDB glob
// characters and a '?' builds its DuckDB file; sql and digest read it; a
// folder with a backslash in a name is refused before any stage runs.
func TestDataFolderWithGlobCharacters(t *testing.T) {
	corpus := t.TempDir()
	copyDir(t, filepath.Join(demoCorpus, vaultID), filepath.Join(corpus, vaultID))
	data := filepath.Join(t.TempDir(), "results [v2]?*")
	if _, err := solbehave(t, "crawl", "--quiet", "--corpus", corpus, "--data", data); err != nil {
		t.Fatal(err)
	}
	if out, err := solbehave(t, "sql", "--data", data, "--format", "csv", "SELECT count(*) AS n FROM crawl_candidates"); err != nil || strings.TrimSpace(out) != "n\n1" {
		t.Errorf("sql: %q, %v", out, err)
	}
	if d := digest(t, data); !strings.Contains(d, "crawl_candidates ") {
		t.Errorf("digest: %s", d)
	}
	slash := filepath.Join(t.TempDir(), `back\slash`)
	if _, err := solbehave(t, "crawl", "--quiet", "--corpus", corpus, "--data", slash); err == nil || !strings.Contains(err.Error(), "backslash") {
		t.Errorf("a backslash folder: want it refused, got %v", err)
	}
	if _, err := os.Stat(filepath.Join(slash, "warehouse")); err == nil {
		t.Error("a stage ran in the refused folder")
	}
}

// TestPublishImportedRun: a clean run made with import:/absolute/dir
// publishes (no record names the folder: the release shows it as …/bench),
// and a publish that fails after it began writing leaves no folder behind.
func TestPublishImportedRun(t *testing.T) {
	corpus, data := oneContractCorpus(t), t.TempDir()
	var rec struct{ Result []struct{ SourceCode string } }
	if err := release.ReadJSON(filepath.Join(corpus, vaultID, "getsourcecode.json"), &rec); err != nil || len(rec.Result) != 1 {
		t.Fatalf("the Vault's record: %v", err)
	}
	bench := filepath.Join(t.TempDir(), "bench")
	os.MkdirAll(filepath.Join(bench, vaultID), 0o755)
	os.WriteFile(filepath.Join(bench, vaultID, "0.sol"), []byte(rec.Result[0].SourceCode), 0o644)
	runLogged(t, "run", "--until", "generate", "--generator", "import:"+bench, "--samples", "1", "--verify-budget", "40",
		"--corpus", corpus, "--data", data, "--quiet")
	if n := queryRows(t, data, "SELECT count(*) FROM generations WHERE error = ''"); len(n) != 1 || n[0] != "1" {
		t.Fatalf("the imported sample did not generate cleanly: %v", n)
	}
	out := filepath.Join(t.TempDir(), "release")
	if msg, err := solbehave(t, "publish", "--creators", "Tester, Ada", "--data", data, "--corpus", corpus, "--out", out); err != nil {
		t.Fatalf("publish of a clean import run: %v\n%s", err, msg)
	}
	if err := release.CheckNoLocalPaths(context.Background(), out, []string{bench}); err != nil {
		t.Fatal(err)
	}
	failed := filepath.Join(t.TempDir(), "failed")
	if _, err := solbehave(t, "publish", "--creators", "Tester, Ada", "--data", data, "--corpus", corpus, "--out", failed, "--license", bench); err == nil {
		t.Fatal("a licence naming a local folder was published")
	}
	if _, err := os.Stat(failed); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the failed publish left %s behind (%v)", failed, err)
	}
}

// TestNoSecretInAnyOutput runs the live crawl against a fake Etherscan that
// echoes the keys (raw, URL-encoded, base64, JSON-escaped) in a source it
// serves and fails one address with the URL in its error page, its URL (from
// a solbehave.toml) holding a key of its own; then skeleton, generate and
// compile with a fake model at a user:password@ URL that echoes every
// secret and the Authorization header it got (Bearer with a key, then Basic
// without) in the reply and the finish reason, the command line as a user
// types it (the lock files record it). It searches every file the runs wrote
// (caches and JSON decoded, artifacts gunzipped), every Parquet string
// through DuckDB, and the log, for every form of every secret.
func TestNoSecretInAnyOutput(t *testing.T) {
	const esKey, llmKey, urlKey, llmPass = "ES+SECRET/key=4f1c9e&x", "sk-llm/secret+77aa==", "urlKEY+in/url=77&z", "llm-PASS/9f+x"
	// The user information's Basic form: net/http sends base64 of it when no
	// key is set. "llm-usr:" is 8 bytes, so the password's own base64 is no
	// part of it (after 9 it would be).
	const llmUser = "llm-usr"
	secrets := []string{esKey, llmKey, urlKey, llmPass, llmUser + ":" + llmPass}
	h, err := etherscan.RecordedHandler(demoCorpus)
	if err != nil {
		t.Fatal(err)
	}
	var forms []string
	for _, k := range secrets {
		forms = append(forms, redact.Forms(k)...)
	}
	echo := strings.Join(forms, " ")
	es := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("address") == "0x00000000000000000000000000000000000000ff" {
			http.Error(w, "upstream failed for "+r.URL.String()+" "+echo, http.StatusBadGateway)
			return
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		// The source served carries every form in a comment (valid JSON:
		// the escaped forms are JSON escapes), so the cache and the crawled
		// corpus both meet them.
		body := strings.Replace(rec.Body.String(), `"SourceCode":"`, `"SourceCode":"// `+echo+`\n`, 1)
		w.WriteHeader(rec.Code)
		io.WriteString(w, body)
	}))
	defer es.Close()
	model := llmtest.New(t, func(n int, r llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Content: "? " + r.Auth + " " + echo, FinishReason: "stop " + r.Auth + " " + echo}
	})
	t.Setenv("ETHERSCAN_API_KEY", esKey)
	t.Setenv("SOLBEHAVE_LLM_API_KEY", llmKey)
	corpus := t.TempDir()
	copyDir(t, filepath.Join(demoCorpus, vaultID), filepath.Join(corpus, vaultID))
	data := t.TempDir()
	toml := filepath.Join(t.TempDir(), "solbehave.toml")
	os.WriteFile(toml, []byte(fmt.Sprintf("etherscan-url = %q\n", es.URL+"/v2/api?chainid=1&key="+url.QueryEscape(urlKey)+"&")), 0o644)
	llmURL := strings.Replace(model.BaseURL(), "http://", "http://"+llmUser+":"+url.PathEscape(llmPass)+"@", 1)
	asTyped := func(args ...string) { // os.Args as the shell gives them
		old := os.Args
		os.Args = append([]string{"solbehave"}, args...)
		defer func() { os.Args = old }()
		solbehave(t, args...)
	}
	log := captureStderr(t, func() {
		asTyped("crawl", "--live", "--data", data, "--config", toml, "--etherscan-rate", "1000",
			"--addresses", "0x4c9fd16cf84c1405a1a54a415446860e67a41b37,0x00000000000000000000000000000000000000ff")
		asTyped("run", "--until", "compile", "--corpus", corpus, "--data", data, "--generator", "openai:m",
			"--llm-url", llmURL, "--samples", "1", "--llm-retries", "0")
		// Without a key the client authenticates with the URL's user:password
		// (Basic): a second sample is asked that way.
		t.Setenv("SOLBEHAVE_LLM_API_KEY", "")
		asTyped("generate", "--corpus", corpus, "--data", data, "--generator", "openai:m",
			"--llm-url", llmURL, "--repin", "samples=2", "--llm-retries", "0")
	})
	auth := map[string]bool{}
	for _, r := range model.Requests() {
		auth[strings.Fields(r.Auth + " none")[0]] = true
	}
	if !auth["Bearer"] || !auth["Basic"] {
		t.Fatalf("the fake model was asked with %v, want Bearer and Basic: the test covers neither", auth)
	}
	if _, err := os.Stat(filepath.Join(data, "corpus", "crawled", vaultID, "getsourcecode.json")); err != nil {
		t.Fatalf("the crawl wrote no corpus: %v", err)
	}
	texts := map[string]string{"log": log}
	files := 0
	filepath.WalkDir(data, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasSuffix(p, ".parquet") && !strings.HasSuffix(p, ".duckdb") {
			files++
			texts[p] = decoded(t, p)
		}
		return nil
	})
	rows := 0
	for _, ds := range schemas.All() {
		out, err := solbehave(t, "sql", "--data", data, "--format", "json", "SELECT * FROM "+ds.Name)
		if err != nil {
			t.Fatalf("%s: %v", ds.Name, err)
		}
		texts["dataset "+ds.Name] = jsonStrings(string(ndjsonArray(out)))
		var parsed []map[string]any
		json.Unmarshal(ndjsonArray(out), &parsed)
		rows += len(parsed)
	}
	found := 0
	for where, text := range texts {
		for _, key := range secrets {
			for _, f := range redact.FormsIn(text, key) {
				found++
				t.Errorf("%s holds the key in the form %q", where, f)
			}
		}
	}
	t.Logf("searched %d files, %d Parquet rows of %d datasets and the log: %d secrets found", files, rows, len(schemas.All()), found)
	if files < 5 || rows < 20 || !strings.Contains(texts["dataset llm_calls"], "stop") {
		t.Fatalf("the runs wrote too little for the search to mean anything: %d files, %d rows", files, rows)
	}
}

// decoded is a file's text as a reader would see it: gunzipped, and for
// JSON every string value unescaped.
func decoded(t *testing.T, path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if zr, err := gzip.NewReader(bytes.NewReader(b)); err == nil {
		if u, err := io.ReadAll(zr); err == nil {
			b = u
		}
	}
	return string(b) + "\n" + jsonStrings(string(b))
}

// jsonStrings is every string (and key) of a JSON text, unescaped; "" when
// the text is not JSON.
func jsonStrings(text string) string {
	var v any
	if json.Unmarshal([]byte(text), &v) != nil {
		return ""
	}
	var b strings.Builder
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			b.WriteString(x + "\n")
			walk(jsonOf(x)) // JSON inside a string (a cached answer, a files map)
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for k, e := range x {
				b.WriteString(k + "\n")
				walk(e)
			}
		}
	}
	walk(v)
	return b.String()
}

func jsonOf(s string) any {
	var v any
	if s == "" || s[0] != '{' && s[0] != '[' || json.Unmarshal([]byte(s), &v) != nil {
		return nil
	}
	return v
}

// captureStderr runs f with os.Stderr (where the logger writes) sent to a pipe.
func captureStderr(t *testing.T, f func()) string {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stderr
	os.Stderr = w
	done := make(chan string)
	go func() {
		b, _ := io.ReadAll(r)
		done <- string(b)
	}()
	defer func() { os.Stderr = old }()
	f()
	w.Close()
	os.Stderr = old
	return <-done
}

// TestEveryFractionKeyIsRangeChecked: keep-threshold = 7.5 (or -0.5) kept or
// dropped every contract without a word. Every float key of the
// configuration has a range: each share, probability and weight refuses
// 7.5 and -0.5, every other float (rates, temperatures, bonus) -0.5 and NaN,
// in solbehave.toml, with the key and the file named.
func TestEveryFractionKeyIsRangeChecked(t *testing.T) {
	shares := map[string]bool{"keep-threshold": true, "mutation-rate": true, "o3-alpha": true, "o3-beta": true,
		"vuln-alpha": true, "vuln-mutation": true, "vuln-branch-weight": true}
	floats := 0
	keySpace().VisitAll(func(f *pflag.Flag) {
		if f.Value.Type() != "float64" {
			return
		}
		floats++
		bad := []string{"-0.5", `"nan"`}
		if shares[f.Name] {
			bad = append(bad, "7.5", "1.0000001")
		}
		for _, v := range bad {
			toml := writeConfig(t, t.TempDir(), fmt.Sprintf("%s = %s\n", f.Name, v))
			_, err := solbehave(t, "config", "--config", toml)
			if err == nil || !strings.Contains(err.Error(), f.Name) || !strings.Contains(err.Error(), toml) ||
				!strings.Contains(err.Error(), "out of range") {
				t.Errorf("%s = %s: want a range error naming the key and file, got %v", f.Name, v, err)
			}
		}
		delete(shares, f.Name)
	})
	if floats < 12 || len(shares) > 0 {
		t.Fatalf("%d float keys; shares not found: %v", floats, shares)
	}
}
