package dcr

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/solbehave/solbehave/internal/dcrgraph"
	"github.com/solbehave/solbehave/internal/llm/llmtest"
	"github.com/solbehave/solbehave/internal/stagetest"
	"github.com/solbehave/solbehave/internal/views"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

func TestMain(m *testing.M) { stagetest.Main(m) }

const giftID = "GiftToken_0xb9554c2ee261c84d70d3c0d5543b0c35417b4ccf"

// keptEnv is a run environment over the demo corpus with the `contracts`
// rows verify would write for the named contracts (kept).
func keptEnv(t *testing.T, ids ...string) *pipeline.Env {
	t.Helper()
	env := stagetest.NewEnv(t, stagetest.DemoCorpus)
	for _, id := range ids {
		stagetest.Write(t, env, schemas.Contracts, id, "verify", []schemas.Contract{{ContractID: id, Kept: true}})
	}
	return env
}

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestStaticStageAndTable2 runs the stage on two demo contracts with an
// annotation for one of them, then checks the graph file, the rows, a rerun
// that skips everything, and table3_dcr_validation against counts computed
// here from the rows.
func TestStaticStageAndTable2(t *testing.T) {
	env := keptEnv(t, giftID, stagetest.VaultID)
	s := New()
	s.Annotations = t.TempDir()
	writeJSON(t, filepath.Join(s.Annotations, giftID+".json"), AnnotationFile{ContractID: giftID, Contract: "GiftToken",
		Annotator: "test", Relations: []AnnotatedRelation{
			{Type: "include", Source: "enableSale.success", Target: "buy.success", Verdict: "correct", Phase: "source"},
			{Type: "condition", Source: "approve.success", Target: "transferFrom.success", Verdict: "correct", Phase: "source"},
			{Type: "condition", Source: "transfer.success", Target: "transferFrom.success", Verdict: "correct", Phase: "source"},
			{Type: "response", Source: "fallback.success", Target: "withdrawEth.success", Verdict: "incorrect", Phase: "review"},
		}})
	c := stagetest.Run(t, env, s)
	if c.Failed != 0 || c.Ran != 3 {
		t.Fatalf("counters %+v: want 3 units (2 graphs, 1 annotation file), none failed", c)
	}
	graphs := stagetest.Rows(t, env, schemas.DCRGraphs)
	rels := stagetest.Rows(t, env, schemas.DCRRelations)
	events := stagetest.Rows(t, env, schemas.DCREvents)
	for _, g := range graphs {
		raw, err := os.ReadFile(filepath.Join(env.Data, g.Path))
		if err != nil || g.Status != "ok" {
			t.Fatalf("%s: status %s, file %v", g.ContractID, g.Status, err)
		}
		parsed, err := dcrgraph.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		if int(g.Events) != len(parsed.Events) || int(g.Relations) != len(parsed.Relations) {
			t.Fatalf("%s: row says %d events %d relations, file has %d and %d", g.ContractID, g.Events, g.Relations,
				len(parsed.Events), len(parsed.Relations))
		}
	}
	hasGiftEvent := slices.ContainsFunc(events, func(e schemas.DCREvent) bool { return e.ContractID == giftID })
	if !hasGiftEvent || !slices.ContainsFunc(rels, func(r schemas.DCRRelation) bool { return r.ContractID == giftID }) {
		t.Fatal("no GiftToken events or relations")
	}
	if again := stagetest.Run(t, env, s); again.Skipped != 3 || again.Ran != 0 {
		t.Fatalf("a rerun with unchanged inputs should skip every unit: %+v", again)
	}
	tp, fp, fn := expected(rels, giftID)
	got := table2(t, env, "all")
	if got != [3]int64{tp, fp, fn} || tp != 2 || fn != 1 {
		t.Fatalf("table2 all = %v, want tp/fp/fn %d/%d/%d (2 correct emitted, 1 missed)", got, tp, fp, fn)
	}
}

// expected scores GiftToken's static relations against the test annotation.
func expected(rels []schemas.DCRRelation, id string) (tp, fp, fn int64) {
	correct := map[string]bool{"include enableSale.success buy.success": true,
		"condition approve.success transferFrom.success": true, "condition transfer.success transferFrom.success": true}
	seen := map[string]bool{}
	for _, r := range rels {
		if r.ContractID != id || r.Extractor != "static" {
			continue
		}
		k := r.Type + " " + r.SourceKey + " " + r.TargetKey
		seen[k] = true
		if correct[k] {
			tp++
		} else {
			fp++
		}
	}
	for k := range correct {
		if !seen[k] {
			fn++
		}
	}
	return tp, fp, fn
}

func table2(t *testing.T, env *pipeline.Env, relation string) [3]int64 {
	t.Helper()
	db, err := views.OpenInMemory(env.Warehouse.Root)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var got [3]int64
	err = db.QueryRow(`SELECT tp, fp, fn FROM table3_dcr_validation WHERE extractor = 'static' AND relation = ?`, relation).
		Scan(&got[0], &got[1], &got[2])
	if err != nil {
		t.Fatal(err)
	}
	return got
}

const vaultGraph = `{"contract": "Vault", "events": [
  {"id": "initializeSuccess", "function": "initialize", "branch": "success", "role": "any"},
  {"id": "withdrawSuccess", "function": "withdraw", "branch": "success", "role": "any", "args": [{"type": "uint256", "value": 1}]}],
 "relations": [{"type": "condition", "source": "initializeSuccess", "target": "withdrawSuccess"}]}`

// TestLLMStage runs the llm extractor against a scripted endpoint: a valid
// graph is stored and its request logged; two invalid replies leave a
// `rejected` row, two logged requests with the validation problems, no file.
func TestLLMStage(t *testing.T) {
	for _, tc := range []struct {
		name    string
		replies []string
		status  string
		calls   int
	}{
		{"valid", []string{vaultGraph}, "ok", 1},
		{"rejected", []string{"no JSON here", `{"contract": "Vault", "events": [{"id": "x", "function": "steal", "role": "any"}], "relations": []}`}, "rejected", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.New(t, func(n int, _ llmtest.Request) llmtest.Reply {
				if n < len(tc.replies) {
					return llmtest.Reply{Content: tc.replies[n]}
				}
				return llmtest.Reply{Status: 400, Body: "unexpected request"}
			})
			env := keptEnv(t, stagetest.VaultID)
			s := New()
			s.Extractors, s.Annotations = []string{"llm:test-model"}, ""
			s.LLM.BaseURL, s.LLM.APIKey, s.LLM.Timeout = srv.BaseURL(), "k", 5*time.Second
			if c := stagetest.Run(t, env, s); c.Failed != 0 || c.Ran != 1 {
				t.Fatalf("counters %+v", c)
			}
			g := stagetest.Rows(t, env, schemas.DCRGraphs)
			calls := stagetest.Rows(t, env, schemas.LLMCalls)
			if len(g) != 1 || g[0].Status != tc.status || g[0].Extractor != "llm:test-model" || len(calls) != tc.calls {
				t.Fatalf("graphs %+v, %d calls", g, len(calls))
			}
			for i, c := range calls {
				invalid := strings.HasPrefix(c.Error, "invalid DCR graph")
				if c.Purpose != "dcr" || c.Sample != -1 || c.Model != "llm:test-model" || invalid != (tc.status == "rejected") {
					t.Fatalf("call %d: %+v", i, c)
				}
			}
			_, err := os.Stat(filepath.Join(env.Data, graphPath(stagetest.VaultID, "llm:test-model")))
			if (err == nil) != (tc.status == "ok") {
				t.Fatalf("graph file present = %v for status %s", err == nil, tc.status)
			}
			if tc.status == "ok" && len(stagetest.Rows(t, env, schemas.DCRRelations)) != 1 {
				t.Fatal("the valid graph's relation should be a row")
			}
		})
	}
}

func TestReadAnnotationsRejectsBadFiles(t *testing.T) {
	dir := t.TempDir()
	bad := map[string]string{
		"unknown field": `{"contract_id": "X", "annotator": "a", "relations": [], "extra": 1}`,
		"wrong id":      `{"contract_id": "Y", "annotator": "a", "relations": []}`,
		"bad relation": `{"contract_id": "X", "annotator": "a", "relations": [
			{"type": "precedes", "source": "a", "target": "b.success", "verdict": "maybe", "phase": "later"}]}`,
		"duplicate": `{"contract_id": "X", "annotator": "a", "relations": [
			{"type": "condition", "source": "a.success", "target": "b.success", "verdict": "correct", "phase": "source"},
			{"type": "condition", "source": "a.success", "target": "b.success", "verdict": "incorrect", "phase": "review"}]}`,
	}
	for name, body := range bad {
		path := filepath.Join(dir, "X.json")
		os.WriteFile(path, []byte(body), 0o644)
		if _, err := ReadAnnotations(path); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// TestRepositoryAnnotationsParse reads every committed annotation file.
func TestRepositoryAnnotationsParse(t *testing.T) {
	files, _ := filepath.Glob("../../data/annotations/dcr/*.json")
	if len(files) == 0 {
		t.Fatal("no annotation files in data/annotations/dcr")
	}
	for _, f := range files {
		if _, err := ReadAnnotations(f); err != nil {
			t.Error(err)
		}
	}
}

// Without --extractor, an LLM generator's model extracts the graphs (the
// paper's extractor), through the endpoint on 127.0.0.1; without an LLM
// generator, the static rules do.
func TestExtractorFollowsTheGenerators(t *testing.T) {
	srv := llmtest.New(t, func(n int, _ llmtest.Request) llmtest.Reply { return llmtest.Reply{Content: vaultGraph} })
	for _, tc := range []struct {
		generators []string
		want       string
		requests   int
	}{{[]string{"mutant", "reference"}, "static", 0}, {[]string{"mutant", "openai:test-model"}, "llm:test-model", 1}} {
		env := keptEnv(t, stagetest.VaultID)
		s := New()
		s.Generators, s.Annotations = tc.generators, ""
		s.LLM.BaseURL, s.LLM.APIKey, s.LLM.Timeout = srv.BaseURL(), "k", 5*time.Second
		before := len(srv.Requests())
		if c := stagetest.Run(t, env, s); c.Failed != 0 || c.Ran != 1 {
			t.Fatalf("%v: counters %+v", tc.generators, c)
		}
		g := stagetest.Rows(t, env, schemas.DCRGraphs)
		if len(g) != 1 || g[0].Extractor != tc.want || g[0].Status != "ok" || len(srv.Requests())-before != tc.requests {
			t.Fatalf("%v: graphs %+v after %d requests, want one %s graph", tc.generators, g, len(srv.Requests())-before, tc.want)
		}
		if !strings.HasPrefix(srv.URL, "http://127.0.0.1:") {
			t.Fatalf("scripted endpoint at %s", srv.URL)
		}
	}
}

// TestUnreadableAnnotationsAreErrorRows: an annotation file that links to
// /dev/zero and one that is a FIFO neither hang nor grow the planning: each
// is its contract's error row, and a readable annotation still loads.
func TestUnreadableAnnotationsAreErrorRows(t *testing.T) {
	env := stagetest.NewEnv(t, stagetest.DemoCorpus)
	dir := t.TempDir()
	if err := os.Symlink("/dev/zero", filepath.Join(dir, giftID+".json")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, stagetest.VaultID+".json"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := New()
	s.Annotations = dir
	c := stagetest.Run(t, env, s)
	if c.Units != 2 || c.Failed != 2 {
		t.Fatalf("want the 2 annotation units failed, got %+v", c)
	}
	for _, e := range stagetest.Rows(t, env, schemas.Errors) {
		if !strings.Contains(e.Message, "not a regular file") {
			t.Errorf("error row %+v does not say why", e)
		}
	}
}
