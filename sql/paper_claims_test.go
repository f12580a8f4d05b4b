package sqlviews_test

import (
	"testing"

	"github.com/solbehave/solbehave/internal/stagetest"
	"github.com/solbehave/solbehave/schemas"
)

// Two LLM models and the reference control: the claims count LLM samples
// only, leave out the model below 3% under both oracles, and give a reason
// where no model was replayed (O3 here).
func TestPaperClaimsComputesTheRunsValueOrAReason(t *testing.T) {
	f := newFixture(t)
	for _, c := range []string{"A", "B"} {
		put(f, "samples", c, schemas.Sample{ContractID: c, Model: "a", Generator: "openai"},
			schemas.Sample{ContractID: c, Model: "b", Generator: "openai"}, schemas.Sample{ContractID: c, Model: "reference", Generator: "reference"})
	}
	put(f, "fuzz_results", "A", fuzzed("A", "a", "f", true), fuzzed("A", "a", "g", false), fuzzed("A", "reference", "f", true), fuzzed("A", "reference", "g", true))
	put(f, "fuzz_results", "B", fuzzed("B", "a", "f", false))
	put(f, "replay_calls", "A", call("A", "a", 0, false, false), call("A", "b", 0, true, false))
	put(f, "replay_calls", "B", call("B", "a", 0, true, false), call("B", "b", 0, true, false))
	db := f.open()
	got := stagetest.QueryMaps(t, db, `SELECT id, paper_value, run_value, n, reason IS NOT NULL AS has_reason FROM paper_claims`)
	want := `[{"has_reason":false,"id":"solbehave_fuzzable_contracts","n":2,"paper_value":244,"run_value":2},` +
		`{"has_reason":false,"id":"solbehave_o1_pooled_functions","n":3,"paper_value":0.314,"run_value":0.3333333333333333},` +
		`{"has_reason":false,"id":"solbehave_o2_divergent_high","n":1,"paper_value":0.31,"run_value":0.5},` +
		`{"has_reason":false,"id":"solbehave_o2_divergent_low","n":1,"paper_value":0.13,"run_value":0.5},` +
		`{"has_reason":true,"id":"solbehave_o3_divergent_high","n":0,"paper_value":0.44,"run_value":null},` +
		`{"has_reason":true,"id":"solbehave_o3_divergent_low","n":0,"paper_value":0.13,"run_value":null}]`
	if stagetest.JSON(got) != want {
		t.Fatalf("paper_claims %s\nwant %s", stagetest.JSON(got), want)
	}
}
