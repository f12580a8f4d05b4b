package sequences

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/solbehave/solbehave/internal/callseq"
	"github.com/solbehave/solbehave/internal/dcrextract"
	"github.com/solbehave/solbehave/internal/dcrgraph"
	"github.com/solbehave/solbehave/internal/stagetest"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

func TestMain(m *testing.M) { stagetest.Main(m) }

// setup writes what verify and dcr would have for the named demo
// contracts: kept, the original's artifact, the static graph (or the one
// given) as a file and a dcr_graphs row.
func setup(t *testing.T, env *pipeline.Env, graphs map[string]*dcrgraph.Graph, names ...string) {
	t.Helper()
	for _, rec := range stagetest.LoadRecords(t, stagetest.DemoCorpus, 1000, names...) {
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
		stagetest.Write(t, env, schemas.Contracts, e.ID, "test", []schemas.Contract{{ContractID: e.ID, Kept: true}})
		stagetest.Write(t, env, schemas.Reproducibility, e.ID, "test", []schemas.ReproducibilityRow{{ContractID: e.ID, Kept: true, Artifact: id}})
		stagetest.Write(t, env, schemas.DCRGraphs, e.ID, "test", []schemas.DCRGraph{
			{ContractID: e.ID, Extractor: "static", Status: "ok", Path: rel, GraphSHA256: id + string(raw)},
			{ContractID: e.ID, Extractor: "llm:broken", Status: "rejected"},
		})
	}
}

func stats(t *testing.T, env *pipeline.Env) map[string]any {
	t.Helper()
	got := stagetest.QueryMaps(t, stagetest.OpenViews(t, env), `SELECT contracts, attempted, kept, discarded, contracts_without_sequence,
		kept_history + kept_search AS kept_fallback, contracts_attempt_bound, attempt_bound_share, (SELECT count(*) FROM sequence_calls) AS rows FROM sequence_stats`)
	if len(got) == 0 {
		t.Fatal("sequence_stats is empty")
	}
	return got[0]
}

func TestStageGeneratesTheBudgetPerGraph(t *testing.T) {
	env := stagetest.NewEnv(t, stagetest.DemoCorpus)
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
	rows := stagetest.Rows(t, env, schemas.SequenceCalls)
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
// contract without a sequence under the paper's protocol; the extended
// one's retries find recorded arguments, and --o3-history-tries alone does
// too over the paper profile.
func TestProfileDecidesWhetherAContractGetsASequence(t *testing.T) {
	lockInThePast := &dcrgraph.Graph{Contract: "EtherLocker", Extractor: "static", Events: []dcrgraph.Event{{
		ID: "lockSuccess", Function: "lock", Branch: "success", Role: dcrgraph.RoleAny, Included: true, Value: "1 ether",
		Args: []dcrgraph.Arg{{Type: "address", Value: dcrgraph.StringArg("0x00000000000000000000000000000000000000b0")},
			{Type: "uint256", Value: dcrgraph.NumberArg("0")}}}}}
	three := 3
	for _, tc := range []struct {
		name      string
		profile   string
		tries     *int
		sequenced bool
	}{{"paper", "paper", nil, false}, {"extended", "extended", nil, true}, {"paper+history-tries", "paper", &three, true}} {
		env := stagetest.NewEnv(t, stagetest.DemoCorpus)
		setup(t, env, map[string]*dcrgraph.Graph{"EtherLocker": lockInThePast}, "EtherLocker")
		s := New()
		s.Profile, s.Overrides.HistoryTries = tc.profile, tc.tries
		s.Config.Budget, s.Config.MaxAttempts = 10, 100
		stagetest.RunStage(t, env, s)
		got := stats(t, env)
		none, kept := got["contracts_without_sequence"].(int64), got["kept"].(int64)
		if tc.sequenced && (none != 0 || kept != 10 || got["kept_fallback"].(int64) != 10) {
			t.Errorf("%s: %v", tc.name, got)
		}
		if !tc.sequenced && (none != 1 || kept != 0 || got["attempted"].(int64) != 100 || got["contracts_attempt_bound"] != int64(1)) {
			t.Errorf("%s: %v", tc.name, got)
		}
	}
}

// The two profiles on the demo StakingPool: paper sends every call from the
// deployer and searches no argument, extended does not; a run of paper then
// extended keeps both profiles' rows, and each rerun skips its own units.
func TestProfilesDifferAndKeepEachOthersRows(t *testing.T) {
	env := stagetest.NewEnv(t, stagetest.DemoCorpus)
	setup(t, env, nil, "StakingPool")
	paper, ext := New(), New()
	paper.Config.Budget, ext.Config.Budget = 60, 60
	ext.Profile = "extended"
	if c := stagetest.RunStage(t, env, paper); c.Ran != 1 {
		t.Fatalf("paper ran %+v", c)
	}
	if c := stagetest.RunStage(t, env, ext); c.Ran != 1 {
		t.Fatalf("extended ran %+v", c)
	}
	db := stagetest.OpenViews(t, env)
	per := map[string]map[string]any{}
	for _, r := range stagetest.QueryMaps(t, db, `SELECT profile, count(DISTINCT sender) AS senders,
		count(*) FILTER (WHERE args_source = 'search') AS searched, count(*) FILTER (WHERE try > 0) AS retries
		FROM sequence_calls GROUP BY profile`) {
		per[r["profile"].(string)] = r
	}
	p, e := per["paper"], per["extended"]
	if p == nil || e == nil {
		t.Fatalf("rows per profile %v: want both", per)
	}
	if p["senders"] != int64(1) || p["searched"] != int64(0) || p["retries"] != int64(0) {
		t.Errorf("paper %v: want one sender, no search, no retry", p)
	}
	if e["senders"].(int64) < 2 || e["searched"].(int64) == 0 {
		t.Errorf("extended %v: want user senders and searched arguments", e)
	}
	deployer := stagetest.QueryMaps(t, db, `SELECT DISTINCT sender FROM sequence_calls WHERE profile = 'paper' AND role = 'owner'`)
	if n := stagetest.QueryInt(t, db, `SELECT count(*) FROM sequence_calls WHERE profile = 'paper' AND sender <> ?`, deployer[0]["sender"]); n != 0 {
		t.Errorf("paper: %d calls not from the deployer", n)
	}
	if c := stagetest.RunStage(t, env, paper); c.Ran != 0 {
		t.Errorf("paper again ran %d units", c.Ran)
	}
	if n := stagetest.QueryInt(t, stagetest.OpenViews(t, env), `SELECT count(DISTINCT profile) FROM sequence_calls`); n != 2 {
		t.Errorf("%d profiles left after a rerun of paper, want 2", n)
	}
}

func TestUnknownProfileIsAnError(t *testing.T) {
	env := stagetest.NewEnv(t, stagetest.DemoCorpus)
	s := New()
	s.Profile = "papers"
	if _, err := s.Plan(context.Background(), env); err == nil || !strings.Contains(err.Error(), "papers") {
		t.Fatalf("Plan with --o3-profile papers: %v", err)
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

// A part's flag overrides the profile's setting of it, and only that part.
func TestPartFlagsOverrideTheProfile(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want callseq.Parts
	}{
		{nil, callseq.Parts{}},
		{[]string{"--o3-profile", "extended"}, callseq.Parts{Users: 4, HistoryTries: 3, SearchTries: 4, FallbackPatience: 3, HistoryPace: true}},
		{[]string{"--o3-profile", "extended", "--o3-users", "0", "--o3-history-pace=false"}, callseq.Parts{HistoryTries: 3, SearchTries: 4, FallbackPatience: 3}},
		{[]string{"--o3-search-tries", "2", "--o3-history-pace"}, callseq.Parts{SearchTries: 2, HistoryPace: true}},
		{[]string{"--o3-profile", "extended", "--o3-users", "1", "--o3-users", ""}, callseq.Parts{Users: 4, HistoryTries: 3, SearchTries: 4, FallbackPatience: 3, HistoryPace: true}},
	} {
		s := New()
		fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
		s.BindFlags(fs)
		if err := fs.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		cfg, err := s.config()
		if err != nil || cfg.Parts != tc.want {
			t.Errorf("%v: parts %+v (%v), want %+v", tc.args, cfg.Parts, err, tc.want)
		}
	}
}

// The default attempt bound is a guard, not a second budget: demo
// contracts that discard over 80% of their candidates (TipJar,
// MultiSigWallet) still keep T calls, and sequence_stats says the bound
// ended none of them.
func TestAttemptBoundEndsNoDemoContractShort(t *testing.T) {
	env := stagetest.NewEnv(t, stagetest.DemoCorpus)
	setup(t, env, nil, "TipJar", "MultiSigWallet")
	s := New()
	s.Config.Budget = 100
	stagetest.RunStage(t, env, s)
	rows := stagetest.QueryMaps(t, stagetest.OpenViews(t, env),
		`SELECT contract_id, kept, discard_rate, hit_attempt_bound FROM sequence_contracts`)
	for _, r := range rows {
		if r["hit_attempt_bound"] != false || r["kept"].(int64) < 100 {
			t.Errorf("%v: the attempt bound ended it short of T = 100", r)
		}
	}
	if got := stats(t, env); got["contracts"] != int64(2) || got["contracts_attempt_bound"] != int64(0) || got["attempt_bound_share"] != 0.0 {
		t.Errorf("sequence_stats %v, want two contracts, none ended by the bound", got)
	}
}
