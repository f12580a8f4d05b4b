package sqlviews_test

import (
	"database/sql"
	"fmt"
	"testing"

	"github.com/solbehave/solbehave/internal/stagetest"
	"github.com/solbehave/solbehave/internal/views"
	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/schemas"
)

// fixture is a warehouse written row by row (each write its own part in the
// contract's partition), opened in DuckDB with the views a test reads.
type fixture struct {
	t *testing.T
	w *warehouse.Warehouse
	n int
}

func newFixture(t *testing.T) *fixture {
	return &fixture{t: t, w: warehouse.New(t.TempDir())}
}

func put[T any](f *fixture, dataset, contract string, rows ...T) {
	f.t.Helper()
	f.n++
	part := fmt.Sprintf("t%d", f.n)
	if err := warehouse.Write(f.w.Path(dataset, warehouse.ByContract(contract), part), rows); err != nil {
		f.t.Fatal(err)
	}
}

// open opens the fixture's dataset views and the sql/ views named, with
// those they read (views' own tests bind every view:
// TestEveryViewRunsAndKeepsItsPromise).
func (f *fixture) open(names ...string) *sql.DB {
	f.t.Helper()
	db, err := views.OpenViewsInMemory(f.w.Root, names...)
	if err != nil {
		f.t.Fatal(err)
	}
	f.t.Cleanup(func() { db.Close() })
	return db
}

// call is one O2 replay_calls row of model m's sample 0 on contract c.
func call(c, m string, step int64, match, gasLimited bool) schemas.ReplayCall {
	return schemas.ReplayCall{ContractID: c, Model: m, Oracle: schemas.OracleO2, Step: step,
		StatusRef: schemas.StatusSuccess, StatusSample: map[bool]schemas.CallStatus{true: schemas.StatusSuccess, false: schemas.StatusRevert}[match],
		StatusMatch: match, GasLimited: gasLimited}
}

// fig4_replay counts the divergent contracts whose every divergence is
// gas-limited, apart from the divergent ones, under the `_rate` names.
func TestFig4ReplayCountsGasOnlyDivergences(t *testing.T) {
	f := newFixture(t)
	put(f, "replay_calls", "A", call("A", "m", 0, true, false), call("A", "m", 1, false, true))  // gas only
	put(f, "replay_calls", "B", call("B", "m", 0, false, true), call("B", "m", 1, false, false)) // gas and logic
	put(f, "replay_calls", "C", call("C", "m", 0, true, false), call("C", "m", 1, true, false))  // agrees
	db := f.open("fig4_replay")
	got := stagetest.QueryMaps(t, db, `SELECT n, divergent, divergent_gas_only, status_match_rate, status_match_min_rate FROM fig4_replay WHERE oracle = 'O2' AND model = 'm'`)
	want := `[{"divergent":2,"divergent_gas_only":1,"n":3,"status_match_min_rate":0.5,"status_match_rate":0.5}]`
	if stagetest.JSON(got) != want {
		t.Fatalf("fig4_replay %s\nwant %s", stagetest.JSON(got), want)
	}
}

// summary rows: one sample of model m on contract c under oracle o, with
// calls that all match or not.
func replayed(c, oracle, setting, profile string, divergent bool) schemas.ReplayCall {
	r := call(c, "m", 0, !divergent, false)
	r.Oracle, r.GraphSetting, r.Profile = oracle, setting, profile
	return r
}

// fig4_complementarity counts as "O2 only" every contract O2 flags and O3
// does not, including a contract O3 never evaluated (§V-D d).
func TestFig4ComplementarityCountsO2OnlyOutsideO3(t *testing.T) {
	f := newFixture(t)
	put(f, "replay_calls", "A", replayed("A", "O2", "", "", true), replayed("A", "O3", "fixed", "paper", true))  // both
	put(f, "replay_calls", "B", replayed("B", "O2", "", "", true), replayed("B", "O3", "fixed", "paper", false)) // O2 only, evaluated by both
	put(f, "replay_calls", "C", replayed("C", "O2", "", "", true))                                               // O2 only, O3 never ran
	put(f, "replay_calls", "D", replayed("D", "O2", "", "", false), replayed("D", "O3", "fixed", "paper", true)) // O3 only
	put(f, "replay_calls", "E", replayed("E", "O2", "", "", false))                                              // neither
	db := f.open("fig4_complementarity")
	got := stagetest.QueryMaps(t, db, `SELECT n_o2, n_o3, n_both, o2_only, "both", o3_only FROM fig4_complementarity WHERE model = 'm'`)
	want := `[{"both":1,"n_both":3,"n_o2":5,"n_o3":3,"o2_only":2,"o3_only":1}]`
	if stagetest.JSON(got) != want {
		t.Fatalf("fig4_complementarity %s\nwant %s", stagetest.JSON(got), want)
	}
}

// coverage is one coverage row: function fn of contract c, called or not.
func coverage(c, oracle, extractor, fn string, called bool) schemas.FunctionCoverage {
	r := schemas.FunctionCoverage{ContractID: c, Oracle: oracle, Model: extractor, Function: fn, Selector: "0x" + fn}
	if oracle == schemas.OracleO3 {
		r.GraphSetting, r.Profile = "fixed", "paper"
	}
	if called {
		r.Calls = 1
	}
	return r
}

// table4_coverage averages over every kept contract: one an oracle never ran
// on counts as uncovered, and the view says how many each oracle evaluated.
func TestTable4CoverageAveragesOverEveryKeptContract(t *testing.T) {
	f := newFixture(t)
	// functions counts every kept contract's state-changing functions (the
	// paper's 1,759), C's 3 included though no oracle ran on it.
	for c, n := range map[string]int64{"A": 2, "B": 4, "C": 3} {
		put(f, "contracts", c, schemas.Contract{ContractID: c, Kept: true, NStateChangingABI: n})
	}
	put(f, "contracts", "X", schemas.Contract{ContractID: "X"}) // not kept: ignored
	// A: both oracles, O3 covers 2/2, O2 1/2. B: O2 only, 1/4. C: no oracle ran.
	put(f, "coverage", "A", coverage("A", "O3", "static", "f1", true), coverage("A", "O3", "static", "f2", true),
		coverage("A", "O2", "", "f1", true), coverage("A", "O2", "", "f2", false))
	put(f, "coverage", "B", coverage("B", "O2", "", "f1", true), coverage("B", "O2", "", "f2", false),
		coverage("B", "O2", "", "f3", false), coverage("B", "O2", "", "f4", false))
	put(f, "coverage", "X", coverage("X", "O3", "static", "f1", true), coverage("X", "O2", "", "f1", false))
	db := f.open("table4_coverage")
	got := stagetest.QueryMaps(t, db, `SELECT extractor, contracts, o3_evaluated, o2_evaluated, functions, o3_coverage_rate, o2_coverage_rate,
		contracts_o3_gt_o2, contracts_o3_lt_o2, functions_o3_only, functions_o2_only FROM table4_coverage`)
	want := `[{"contracts":3,"contracts_o3_gt_o2":1,"contracts_o3_lt_o2":1,"extractor":"static","functions":9,"functions_o2_only":1,` +
		`"functions_o3_only":1,"o2_coverage_rate":0.25,"o2_evaluated":2,"o3_coverage_rate":0.3333333333333333,"o3_evaluated":1}]`
	if stagetest.JSON(got) != want {
		t.Fatalf("table4_coverage %s\nwant %s", stagetest.JSON(got), want)
	}
}

// fig2_size_distribution has the six buckets at both stages, empty ones
// included, the crawled stage sized from the recorded ABI (crawl_candidates)
// and counting only candidates that passed the crawl filters.
func TestFig2HasEveryBucketAtBothStages(t *testing.T) {
	f := newFixture(t)
	cand := func(id, bucket string, passed bool) {
		put(f, "crawl_candidates", id, schemas.CrawlCandidate{ContractID: id, Passed: passed, SizeBucket: bucket})
	}
	cand("A", "0", true)
	cand("B", "1-5", true)
	cand("C", "31+", true)
	cand("D", "31+", true)
	cand("P", "1-5", false) // a proxy: not crawled into the benchmark
	put(f, "contracts", "B", schemas.Contract{ContractID: "B", SizeBucket: "1-5", Kept: true})
	put(f, "reproducibility", "B", schemas.ReproducibilityRow{ContractID: "B", Kept: true})
	put(f, "contracts", "C", schemas.Contract{ContractID: "C", SizeBucket: "31+"})
	put(f, "reproducibility", "C", schemas.ReproducibilityRow{ContractID: "C"})
	db := f.open("fig2_size_distribution")
	got := stagetest.QueryMaps(t, db, `SELECT stage, size_bucket, contracts, share_rate FROM fig2_size_distribution ORDER BY stage, bucket_order`)
	want := `[{"contracts":1,"share_rate":0.25,"size_bucket":"0","stage":"crawled"},{"contracts":1,"share_rate":0.25,"size_bucket":"1-5","stage":"crawled"},` +
		`{"contracts":0,"share_rate":0,"size_bucket":"6-10","stage":"crawled"},{"contracts":0,"share_rate":0,"size_bucket":"11-20","stage":"crawled"},` +
		`{"contracts":0,"share_rate":0,"size_bucket":"21-30","stage":"crawled"},{"contracts":2,"share_rate":0.5,"size_bucket":"31+","stage":"crawled"},` +
		`{"contracts":0,"share_rate":0,"size_bucket":"0","stage":"verified"},{"contracts":1,"share_rate":1,"size_bucket":"1-5","stage":"verified"},` +
		`{"contracts":0,"share_rate":0,"size_bucket":"6-10","stage":"verified"},{"contracts":0,"share_rate":0,"size_bucket":"11-20","stage":"verified"},` +
		`{"contracts":0,"share_rate":0,"size_bucket":"21-30","stage":"verified"},{"contracts":0,"share_rate":0,"size_bucket":"31+","stage":"verified"}]`
	if stagetest.JSON(got) != want {
		t.Fatalf("fig2_size_distribution %s\nwant %s", stagetest.JSON(got), want)
	}
}

// oracle_agreement: a rank correlation over two models is ±1 whatever the
// rates are, so it is not defined (NULL) below three models.
func TestOracleAgreementNeedsThreeModels(t *testing.T) {
	f := newFixture(t)
	model := func(c, m, oracle string, match bool) schemas.ReplayCall {
		r := call(c, m, 0, match, false)
		r.Oracle = oracle
		if oracle == schemas.OracleO3 {
			r.GraphSetting, r.Profile = "fixed", "paper"
		}
		return r
	}
	// two models: m1 agrees on O2 and O3, m2 diverges on both.
	put(f, "replay_calls", "A", model("A", "m1", "O2", true), model("A", "m1", "O3", true),
		model("A", "m2", "O2", false), model("A", "m2", "O3", false), model("A", "m2", "O2", true))
	put(f, "replay_calls", "B", model("B", "m1", "O2", true), model("B", "m1", "O3", true),
		model("B", "m2", "O2", true), model("B", "m2", "O3", false))
	got := stagetest.QueryMaps(t, f.open("oracle_agreement"), `SELECT models, spearman_rho, pearson_r FROM oracle_agreement`)
	if want := `[{"models":2,"pearson_r":null,"spearman_rho":null}]`; stagetest.JSON(got) != want {
		t.Fatalf("oracle_agreement over 2 models %s\nwant %s", stagetest.JSON(got), want)
	}
}

// table7_size's seconds are the model's own latency (uncached generate and
// repair calls), not a sample's wall time, which counts the wait for a
// concurrency slot; a control without calls keeps its wall time.
func TestTable7SecondsAreTheModelsLatency(t *testing.T) {
	f := newFixture(t)
	put(f, "contracts", "A", schemas.Contract{ContractID: "A", Kept: true, NNontrivialFunctions: 3})
	put(f, "samples", "A",
		schemas.Sample{ContractID: "A", Model: "openai:m", Sample: 0, CompiledRepaired: true, GenerationMS: 60_000, RepairMS: 5_000},
		schemas.Sample{ContractID: "A", Model: "mutant", Sample: 0, CompiledRepaired: true, GenerationMS: 1_000})
	put(f, "llm_calls", "A",
		schemas.LLMCall{ContractID: "A", Model: "openai:m", Sample: 0, Function: "f", Purpose: "generate", LatencyMS: 2_000},
		schemas.LLMCall{ContractID: "A", Model: "openai:m", Sample: 0, Function: "g", Purpose: "generate", LatencyMS: 9_000, Cached: true},
		schemas.LLMCall{ContractID: "A", Model: "openai:m", Sample: 0, Purpose: "repair", LatencyMS: 1_000},
		schemas.LLMCall{ContractID: "A", Model: "openai:m", Purpose: "natspec", LatencyMS: 50_000})
	got := stagetest.QueryMaps(t, f.open("table7_size"), `SELECT seconds_per_compiling_sample AS s FROM table7_size`)
	// (2 s + 1 s of the model's calls + 1 s of the mutant's wall time) / 2 compiling samples
	if len(got) != 1 || got[0]["s"] != 2.0 {
		t.Fatalf("table7_size seconds per compiling sample %v, want 2", got)
	}
}
