package o3

import (
	"database/sql"
	"encoding/hex"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/solbehave/solbehave/internal/democorpus"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/stagetest"
)

// The whole demo corpus with reference samples (the original recompiled):
// neither O3 nor O4 may blame them, the original must repeat under replay
// what it did during generation (every kept call succeeds, every probe
// reverts), and O3 must reach functions no recorded transaction calls.
func TestReferenceSamplesNeverDivergeDemo(t *testing.T) {
	env := stagetest.NewEnv(t, stagetest.DemoCorpus)
	recs := stagetest.Admitted(stagetest.LoadRecords(t, stagetest.DemoCorpus, 1000))
	kept, probes := 0, 0
	for _, rec := range recs {
		id, out := stagetest.Compile(t, env, rec, nil)
		samples := stagetest.References(2, id)
		stagetest.WriteInputs(t, env, rec.Entry.ID, id, samples)
		gen := writeSequences(t, env, rec, out, 100, "static")
		for _, a := range gen.Attempts {
			switch {
			case a.Kept:
				kept++
			case a.Status == "revert":
				probes++
			}
		}
		writeO2(t, env, rec, out, samples)
	}
	c := stagetest.RunStage(t, env, New())
	// One unit per contract for the original's coverage, one per contract and model.
	if want := 2 * len(recs); c.Units != want || c.Ran != want {
		t.Fatalf("counters %+v, want %d units", c, want)
	}
	db := stagetest.OpenViews(t, env)
	for oracle, want := range map[string]int{"O3": kept * 2, "O4": probes * 2} {
		if got := stagetest.QueryInt(t, db, `SELECT count(*) FROM replay_calls WHERE oracle = ?`, oracle); got != int64(want) || want == 0 {
			t.Errorf("%s: %d rows, want %d (calls x 2 samples)", oracle, got, want)
		}
	}
	for q, want := range map[string]int64{
		`SELECT count(*) FROM replay_calls WHERE oracle = 'O3' AND status_ref <> 'success'`:                                      0,
		`SELECT count(*) FROM replay_calls WHERE oracle = 'O4' AND status_ref <> 'revert'`:                                       0,
		`SELECT count(*) FROM replay_calls WHERE oracle = 'O4' AND NOT probe`:                                                    0,
		`SELECT count(*) FROM replay_calls WHERE oracle IN ('O3', 'O4') AND graph_setting <> 'fixed'`:                            0,
		`SELECT sum(divergent) FROM fig4_replay WHERE oracle IN ('O3', 'O4')`:                                                    0,
		`SELECT count(*) FROM fig4_replay WHERE oracle IN ('O3', 'O4') AND model = 'reference' AND n = ` + fmt.Sprint(len(recs)): 2,
		`SELECT sum(secondary_only_calls + view_mismatches) FROM replay_secondary WHERE oracle IN ('O3', 'O4')`:                  0,
	} {
		if got := stagetest.QueryInt(t, db, q); got != want {
			t.Errorf("%s = %d, want %d", q, got, want)
		}
	}
	checkBeyondHistory(t, db, recs)
}

// checkBeyondHistory: O3 calls functions of the demo contracts that no
// recorded transaction calls (the owner-only setup functions democorpus
// lists), and table4_coverage counts them.
func checkBeyondHistory(t *testing.T, db *sql.DB, recs []*deploy.Record) {
	t.Helper()
	never := neverCalled()
	reached := map[string][]string{}
	for _, rec := range recs {
		history := historySelectors(rec)
		for _, r := range stagetest.QueryMaps(t, db, `SELECT function, selector FROM coverage
			WHERE oracle = 'O3' AND contract_id = ? AND calls > 0 ORDER BY function`, rec.Entry.ID) {
			fn, sel := r["function"].(string), r["selector"].(string)
			if history[sel] {
				continue
			}
			name := contractName(rec.Entry.ID)
			if !slices.Contains(never[name], fn) {
				t.Errorf("%s: O3 calls %s, which the history never calls, yet democorpus does not list it", name, fn)
			}
			reached[name] = append(reached[name], fn)
		}
	}
	for _, setup := range [][2]string{{"Vault", "initialize"}, {"GiftToken", "setBuyPrice"}, {"StakingPool", "setPaused"}} {
		if !slices.Contains(reached[setup[0]], setup[1]) {
			t.Errorf("O3 never calls %s.%s (reached beyond history: %v)", setup[0], setup[1], reached)
		}
	}
	t.Logf("functions O3 calls that no recorded transaction does: %v", reached)
	tab := stagetest.QueryMaps(t, db, `SELECT * FROM table4_coverage`)
	if len(tab) != 1 || tab[0]["extractor"] != "static" || tab[0]["contracts"] != int64(len(recs)) {
		t.Fatalf("table4_coverage %v", tab)
	}
	n := 0
	for _, fns := range reached {
		n += len(fns)
	}
	if tab[0]["functions_o3_only"] != int64(n) || tab[0]["contracts_o3_gt_o2"].(int64) == 0 {
		t.Errorf("table4_coverage %v, want %d functions O3 only", tab[0], n)
	}
	t.Logf("table4_coverage: %v", tab[0])
}

func historySelectors(rec *deploy.Record) map[string]bool {
	seen := map[string]bool{}
	for _, tx := range rec.Txs {
		if in := tx.Input; len(in) >= 4 {
			seen["0x"+hex.EncodeToString(in[:4])] = true
		}
	}
	return seen
}

func neverCalled() map[string][]string {
	out := map[string][]string{}
	for _, s := range democorpus.Specs() {
		out[s.Name] = s.NeverCalled
	}
	return out
}

func contractName(id string) string { return strings.SplitN(id, "_", 2)[0] }

const mainnetCorpus = "../../../shared/corpus/mainnet"

// Two kept mainnet tokens of other compiler eras than the demo's (the O2
// reference test's subset): real contracts must not blame their own
// recompilation either.
func TestReferenceSamplesNeverDivergeMainnet(t *testing.T) {
	if _, err := os.Stat(mainnetCorpus); err != nil {
		t.Skipf("mainnet corpus absent (%s): %v", mainnetCorpus, err)
	}
	env := stagetest.NewEnv(t, mainnetCorpus)
	recs := stagetest.LoadRecords(t, mainnetCorpus, 1000, "FlashToken_0x20398ad62bb2d930646d45a6d4292baa0b860c1f",
		"ROAD_0xd7dcb670d682dffe9a36e0f33f1d3c59b98d3e56")
	for _, rec := range recs {
		id, out := stagetest.Compile(t, env, rec, nil)
		stagetest.WriteInputs(t, env, rec.Entry.ID, id, stagetest.References(2, id))
		writeSequences(t, env, rec, out, 100, "static")
	}
	stagetest.RunStage(t, env, New())
	db := stagetest.OpenViews(t, env)
	for q, want := range map[string]int64{
		`SELECT count(*) FROM replay_calls WHERE oracle = 'O3' AND status_ref = 'success'`:    400,
		`SELECT count(*) FROM replay_calls WHERE oracle IN ('O3', 'O4') AND NOT status_match`: 0,
		`SELECT count(*) FROM replay_calls WHERE oracle = 'O4' AND status_ref <> 'revert'`:    0,
		`SELECT count(DISTINCT contract_id) FROM replay_calls WHERE oracle = 'O3'`:            2,
		`SELECT sum(secondary_only_calls) FROM replay_secondary WHERE oracle IN ('O3', 'O4')`: 0,
	} {
		if got := stagetest.QueryInt(t, db, q); got != want {
			t.Errorf("%s = %d, want %d", q, got, want)
		}
	}
}
