package sqlviews_test

import (
	"fmt"
	"testing"

	"github.com/solbehave/solbehave/internal/stagetest"
)

// Four models on 20 fuzzed contracts: "all" equivalent everywhere, "none"
// nowhere, "even" and "odd" on half each (so equal rates, never on the same
// contract). O2 replays "all" (divergent) and "none" on c00, "none" alone on
// c01: the pair is compared on c00 only (and one contract resamples to
// itself: a zero-width interval, which the view's comment warns of).
func TestModelDifferencesPairsModelsOnTheirCommonContracts(t *testing.T) {
	f := newFixture(t)
	for i := range 20 {
		c := fmt.Sprintf("c%02d", i)
		put(f, "fuzz_results", c, fuzzed(c, "all", "f", true), fuzzed(c, "none", "f", false),
			fuzzed(c, "even", "f", i%2 == 0), fuzzed(c, "odd", "f", i%2 == 1))
	}
	put(f, "replay_calls", "c00", call("c00", "all", 0, false, false), call("c00", "none", 0, true, false))
	put(f, "replay_calls", "c01", call("c01", "none", 0, true, false))
	db := f.open("model_differences")
	got := stagetest.QueryMaps(t, db, `SELECT oracle, model_a, model_b, n, difference, excludes_zero FROM model_differences
		WHERE (model_a, model_b) IN (('all', 'none'), ('even', 'odd'), ('all', 'even')) ORDER BY oracle, model_a, model_b`)
	want := `[{"difference":0.5,"excludes_zero":true,"model_a":"all","model_b":"even","n":20,"oracle":"O1"},` +
		`{"difference":1,"excludes_zero":true,"model_a":"all","model_b":"none","n":20,"oracle":"O1"},` +
		`{"difference":0,"excludes_zero":false,"model_a":"even","model_b":"odd","n":20,"oracle":"O1"},` +
		`{"difference":1,"excludes_zero":true,"model_a":"all","model_b":"none","n":1,"oracle":"O2"}]`
	if stagetest.JSON(got) != want {
		t.Fatalf("model_differences %s\nwant %s", stagetest.JSON(got), want)
	}
	ci := stagetest.QueryMaps(t, db, `SELECT difference_ci_low AS lo, difference_ci_high AS hi FROM model_differences WHERE oracle = 'O1' AND model_a = 'even' AND model_b = 'odd'`)
	if lo, hi := ci[0]["lo"].(float64), ci[0]["hi"].(float64); lo >= 0 || hi <= 0 || lo < -1 || hi > 1 {
		t.Errorf("even - odd interval [%v, %v], want one around 0 within [-1, 1]", lo, hi)
	}
}
