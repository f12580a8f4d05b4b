package o2

import (
	"database/sql"
	"flag"
	"os"
	"testing"
	"time"

	"github.com/solbehave/solbehave/internal/chain"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/stagetest"
	"github.com/solbehave/solbehave/pipeline"
)

var fullMainnet = flag.Bool("o2.full", false, "replay every kept mainnet contract with the full budget (slow: compiles all 44)")

const mainnetCorpus = "../../../shared/corpus/mainnet"

// referenceRun gives every record k reference samples (its own compiled
// original), runs o2 and returns the views.
func referenceRun(t *testing.T, env *pipeline.Env, recs []*deploy.Record, k, budget int) *sql.DB {
	t.Helper()
	start := time.Now()
	for _, rec := range recs {
		one := time.Now()
		id, _ := stagetest.Compile(t, env, rec, nil)
		t.Logf("compiled %s in %s", rec.Entry.ID, time.Since(one).Round(time.Millisecond))
		stagetest.WriteInputs(t, env, rec.Entry.ID, id, stagetest.References(k, id))
	}
	t.Logf("compiled %d originals in %s", len(recs), time.Since(start))
	start = time.Now()
	s := New()
	s.Budget = budget
	c := stagetest.RunStage(t, env, s)
	t.Logf("o2 ran %d units in %s", c.Ran, time.Since(start))
	// One unit per contract for the original's coverage, one per contract and model.
	if want := 2 * len(recs); c.Units != want || c.Ran != want {
		t.Fatalf("counters %+v, want %d units run", c, want)
	}
	return stagetest.OpenViews(t, env)
}

// checkNoFalseAlarm asserts what a reference sample must get: every call's
// status matches, no contract divergent, and nothing on the secondary axes.
func checkNoFalseAlarm(t *testing.T, db *sql.DB, recs []*deploy.Record, k int) {
	t.Helper()
	wantCalls := 0
	for _, rec := range recs {
		wantCalls += len(rec.Txs) * k
	}
	if got := stagetest.QueryInt(t, db, `SELECT count(*) FROM replay_calls WHERE oracle = 'O2' AND model = 'reference'`); got != int64(wantCalls) {
		t.Errorf("replay_calls has %d reference rows, want %d ((calls) x %d samples)", got, wantCalls, k)
	}
	fig := stagetest.QueryMaps(t, db, `SELECT * FROM fig4_replay WHERE oracle = 'O2' AND model = 'reference'`)
	if len(fig) != 1 {
		t.Fatalf("fig4_replay: %v", fig)
	}
	f := fig[0]
	if f["n"].(int64) != int64(len(recs)) || f["status_match_rate"].(float64) != 1 || f["status_match_min_rate"].(float64) != 1 ||
		f["divergent"].(int64) != 0 {
		t.Errorf("reference samples blamed: fig4_replay %v", f)
	}
	sec := stagetest.QueryMaps(t, db, `SELECT * FROM replay_secondary WHERE oracle = 'O2' AND model = 'reference'`)[0]
	for _, col := range []string{"status_mismatch_calls", "gas_flagged_calls", "events_differ_calls", "return_differs_calls",
		"storage_differs_calls", "secondary_only_calls", "secondary_only_contracts", "view_mismatches", "view_only_contracts"} {
		if sec[col].(int64) != 0 {
			t.Errorf("reference samples: %s = %v (%v)", col, sec[col], sec)
		}
	}
	t.Logf("reference: %d contracts, %d calls, %d view readings; secondary: %v", len(recs), wantCalls,
		stagetest.QueryInt(t, db, `SELECT count(*) FROM view_snapshots`), sec)
}

func TestReferenceSamplesNeverDivergeDemo(t *testing.T) {
	env := stagetest.NewEnv(t, stagetest.DemoCorpus)
	recs := stagetest.Admitted(stagetest.LoadRecords(t, stagetest.DemoCorpus, 1000))
	db := referenceRun(t, env, recs, 2, 1000)
	checkNoFalseAlarm(t, db, recs, 2)
	// The replay is not vacuous: it saw successes, reverts, events and writes.
	for q, min := range map[string]int64{
		`SELECT count(*) FROM replay_calls WHERE status_ref = 'revert'`:             10,
		`SELECT count(*) FROM replay_calls WHERE status_ref = 'success'`:            1000,
		`SELECT count(*) FROM replay_calls WHERE n_events_ref > 0`:                  100,
		`SELECT count(DISTINCT storage_writes_ref_sha256) FROM replay_calls`:        100,
		`SELECT count(DISTINCT value_ref_sha256) FROM view_snapshots`:               20,
		`SELECT count(*) FROM coverage WHERE oracle = 'O2' AND calls > 0`:           20,
		`SELECT count(*) FROM coverage WHERE function = 'initialize' AND calls = 0`: 1,
	} {
		if got := stagetest.QueryInt(t, db, q); got < min {
			t.Errorf("%s = %d, want at least %d", q, got, min)
		}
	}
}

// keptMainnet picks the mainnet contracts the reproducibility check admits
// (at least 80% of the first 200 transactions reproduce), as verify does.
func keptMainnet(t *testing.T, env *pipeline.Env, recs []*deploy.Record) []*deploy.Record {
	var kept []*deploy.Record
	for _, rec := range recs {
		out, err := stagetest.CompileCached(env, rec.CompileInput(nil))
		if err != nil {
			continue
		}
		target, err := rec.Target(out)
		if err != nil {
			continue
		}
		d, err := deploy.Deploy(rec, out, target, nil, chain.Options{})
		if err != nil {
			continue
		}
		h, ok := d.Chain.Fork(), 0
		n := min(200, len(rec.Txs))
		for _, tx := range rec.Txs[:n] {
			if res, err := d.Replay(h, tx); err == nil && res.Success == tx.Succeeded {
				ok++
			}
		}
		if n > 0 && float64(ok) >= 0.8*float64(n) {
			kept = append(kept, rec)
		}
	}
	return kept
}

// The default mainnet subset, kept small because compiling dominates: two
// kept tokens of other compiler eras than the demo's. FlashToken reproduces
// 193 of its first 200 transactions: a reference must match the original
// where the original itself departs from its record. -o2.full runs them all.
var mainnetSubset = []string{
	"FlashToken_0x20398ad62bb2d930646d45a6d4292baa0b860c1f",
	"ROAD_0xd7dcb670d682dffe9a36e0f33f1d3c59b98d3e56",
}

func TestReferenceSamplesNeverDivergeMainnet(t *testing.T) {
	if _, err := os.Stat(mainnetCorpus); err != nil {
		t.Skipf("mainnet corpus absent (%s): %v", mainnetCorpus, err)
	}
	env := stagetest.NewEnv(t, mainnetCorpus)
	budget, k := 200, 2
	var recs []*deploy.Record
	if *fullMainnet {
		budget, k = 1000, 3
		recs = keptMainnet(t, env, stagetest.LoadRecords(t, mainnetCorpus, budget))
	} else {
		recs = stagetest.LoadRecords(t, mainnetCorpus, budget, mainnetSubset...)
	}
	db := referenceRun(t, env, recs, k, budget)
	checkNoFalseAlarm(t, db, recs, k)
}
