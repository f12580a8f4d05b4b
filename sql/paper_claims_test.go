package sqlviews_test

import (
	"strings"
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
	got := stagetest.QueryMaps(t, db, `SELECT id, paper_value, run_value, n, reason IS NOT NULL AS has_reason FROM paper_claims
		WHERE id IN ('solbehave_fuzzable_contracts', 'solbehave_o1_pooled_functions', 'solbehave_o2_divergent_high', 'solbehave_o2_divergent_low',
			'solbehave_o3_divergent_high', 'solbehave_o3_divergent_low')`)
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

// Every claim of the versioned file has a row, and each row has a value or a
// reason, never both NULL; a claim naming a model the run did not evaluate
// gives the file's reason.
func TestPaperClaimsNeverASilentNull(t *testing.T) {
	f := newFixture(t)
	put(f, "fuzz_results", "A", fuzzed("A", "reference", "f", true))
	db := f.open()
	got := stagetest.QueryMaps(t, db, `SELECT count(*) AS claims, count(*) FILTER (WHERE run_value IS NULL AND reason IS NULL) AS silent,
		count(*) FILTER (WHERE run_value IS NOT NULL AND reason IS NOT NULL) AS both,
		any_value(reason) FILTER (WHERE id = 'solbehave_qwen_o3_flagged') AS qwen FROM paper_claims`)
	if got[0]["claims"].(int64) < 80 || got[0]["silent"].(int64) != 0 || got[0]["both"].(int64) != 0 {
		t.Fatalf("paper_claims %v: want every claim (80 or more), none silent, none with both a value and a reason", got)
	}
	if q, _ := got[0]["qwen"].(string); !strings.Contains(q, "Qwen3.6-27B") {
		t.Errorf("the Qwen claim's reason %q, want the file's (naming the model)", q)
	}
}
