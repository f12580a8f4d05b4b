package sequences

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/solbehave/solbehave/internal/dcr"
	"github.com/solbehave/solbehave/internal/dcrextract"
	"github.com/solbehave/solbehave/internal/stagetest"
	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

const demoCorpus = "../../data/corpus/demo"

var engines = &pipeline.Engines{}

func TestMain(m *testing.M) {
	code := m.Run()
	engines.Close()
	os.Exit(code)
}

// setup writes what verify and dcr would have for the named demo
// contracts: kept, the original's artifact, the static graph (or the one
// given) as a file and a dcr_graphs row.
func setup(t *testing.T, env *pipeline.Env, graphs map[string]*dcr.Graph, names ...string) {
	t.Helper()
	for _, rec := range stagetest.LoadRecords(t, demoCorpus, 1000, names...) {
		e := rec.Entry
		name := e.Name
		id, out := stagetest.Compile(t, env, rec, nil)
		g := graphs[name]
		if g == nil {
			res, err := dcrextract.Static(dcrextract.FromRecord(rec, out))
			if err != nil {
				t.Fatal(err)
			}
			g = res.Graph
		}
		raw, _ := json.Marshal(g)
		rel := filepath.Join("dcr", e.ID, "static.json")
		os.MkdirAll(filepath.Join(env.Data, "dcr", e.ID), 0o755)
		if err := os.WriteFile(filepath.Join(env.Data, rel), raw, 0o644); err != nil {
			t.Fatal(err)
		}
		stagetest.Write(t, env, "contracts", e.ID, "test", []schemas.Contract{{ContractID: e.ID, Kept: true}})
		stagetest.Write(t, env, "reproducibility", e.ID, "test", []schemas.Reproducibility{{ContractID: e.ID, Kept: true, Artifact: id}})
		stagetest.Write(t, env, "dcr_graphs", e.ID, "test", []schemas.DCRGraph{
			{ContractID: e.ID, Extractor: "static", Status: "ok", Path: rel, GraphSHA256: id + string(raw)},
			{ContractID: e.ID, Extractor: "llm:broken", Status: "rejected"},
		})
	}
}

func stats(t *testing.T, env *pipeline.Env) map[string]any {
	t.Helper()
	got := stagetest.QueryMaps(t, stagetest.OpenViews(t, env), `SELECT contracts, attempted, kept, discarded, contracts_without_sequence,
		kept_history + kept_search AS kept_fallback, (SELECT count(*) FROM sequence_calls) AS rows FROM sequence_stats`)
	if len(got) == 0 {
		t.Fatal("sequence_stats is empty")
	}
	return got[0]
}

func TestStageGeneratesTheBudgetPerGraph(t *testing.T) {
	env := stagetest.NewEnv(t, demoCorpus, engines)
	setup(t, env, nil, "Vault", "GiftToken")
	s := New()
	s.Config.Budget = 30
	c := stagetest.RunStage(t, env, s)
	if c.Units != 2 || c.Ran != 2 {
		t.Fatalf("counters %+v: want one unit per ok graph", c)
	}
	got := stats(t, env)
	if got["contracts"] != int64(2) || got["kept"].(int64) < 60 || got["contracts_without_sequence"] != int64(0) ||
		got["attempted"] != got["rows"] || got["attempted"].(int64) != got["kept"].(int64)+got["discarded"].(int64) {
		t.Fatalf("sequence_stats %v", got)
	}
	rows, err := warehouse.ReadDataset[schemas.SequenceCall](env.Warehouse, "sequence_calls")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.Extractor != "static" || r.Data == "" || r.Sender == "" || (r.Kept != (r.Status == schemas.StatusSuccess)) {
			t.Fatalf("row %+v", r)
		}
	}
	if again := stagetest.RunStage(t, env, s); again.Ran != 0 {
		t.Fatalf("unchanged inputs re-ran %d units", again.Ran)
	}
	s.Config.Budget = 31
	if again := stagetest.RunStage(t, env, s); again.Ran != 2 {
		t.Fatalf("a new budget re-ran %d units, want 2", again.Ran)
	}
}

// A graph whose only event's proposed arguments always revert leaves the
// contract without a sequence, unless the fallback finds other arguments.
func TestFallbackFlagDecidesWhetherAContractGetsASequence(t *testing.T) {
	lockInThePast := &dcr.Graph{Contract: "EtherLocker", Extractor: "static", Events: []dcr.Event{{
		ID: "lockSuccess", Function: "lock", Branch: "success", Role: dcr.RoleAny, Included: true, Value: "1 ether",
		Args: []dcr.Arg{{Type: "address", Value: dcr.StringArg("0x00000000000000000000000000000000000000b0")},
			{Type: "uint256", Value: dcr.NumberArg("0")}}}}}
	for _, fallback := range []bool{false, true} {
		env := stagetest.NewEnv(t, demoCorpus, engines)
		setup(t, env, map[string]*dcr.Graph{"EtherLocker": lockInThePast}, "EtherLocker")
		s := New()
		s.Config.Budget, s.Config.MaxAttempts, s.Config.Fallback = 10, 100, fallback
		stagetest.RunStage(t, env, s)
		got := stats(t, env)
		none, kept := got["contracts_without_sequence"].(int64), got["kept"].(int64)
		if fallback && (none != 0 || kept != 10 || got["kept_fallback"].(int64) != 10) {
			t.Errorf("with the fallback: %v", got)
		}
		if !fallback && (none != 1 || kept != 0 || got["attempted"].(int64) != 100) {
			t.Errorf("without the fallback: %v", got)
		}
	}
}

func TestUnitSeedDependsOnEveryPart(t *testing.T) {
	a := UnitSeed(42, "C", "static")
	for _, b := range []uint64{UnitSeed(43, "C", "static"), UnitSeed(42, "D", "static"), UnitSeed(42, "C", "llm:x")} {
		if a == b {
			t.Fatal("seed collision")
		}
	}
}
