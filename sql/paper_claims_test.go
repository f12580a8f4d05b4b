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
	db := f.open("paper_claims")
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
	db := f.open("paper_claims")
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

// The rank statements over three LLM models on one kept contract with four
// samples each. Compile@4 raw a .75, b .25, c .5 and repaired a 1, b .75,
// c .5: only a keeps its rank through repair. Table V's Functions a 1,
// b .5, c 0 rank like Compile@4 after repair (3 of 3), not like raw. O2's
// status match a 1, b .5, c .75 falls on the step a→b and rises on b→c.
func TestPaperClaimsRankStatements(t *testing.T) {
	f := newFixture(t)
	put(f, "contracts", "A", schemas.Contract{ContractID: "A", Kept: true})
	compiles := map[string][4][2]bool{
		"a": {{true, true}, {true, true}, {true, true}, {false, true}},
		"b": {{true, true}, {false, true}, {false, true}, {false, false}},
		"c": {{true, true}, {true, true}, {false, false}, {false, false}},
	}
	for m, ss := range compiles {
		for i, s := range ss {
			put(f, "samples", "A", schemas.Sample{ContractID: "A", Model: m, Sample: int64(i), Generator: "openai", CompiledRaw: s[0], CompiledRepaired: s[1]})
		}
	}
	put(f, "fuzz_results", "A", fuzzed("A", "a", "f", true), fuzzed("A", "a", "g", true),
		fuzzed("A", "b", "f", true), fuzzed("A", "b", "g", false), fuzzed("A", "c", "f", false), fuzzed("A", "c", "g", false))
	for m, matches := range map[string][]bool{"a": {true, true, true, true}, "b": {true, false, true, false}, "c": {true, true, true, false}} {
		for step, ok := range matches {
			put(f, "replay_calls", "A", call("A", m, int64(step), ok, false))
		}
	}
	db := f.open("paper_claims")
	got := stagetest.QueryMaps(t, db, `SELECT id, run_value, n, reason FROM paper_claims
		WHERE id IN ('solbehave_repair_keeps_rank', 'solbehave_o1_keeps_compile_rank', 'solbehave_o2_match_steps_down', 'solbehave_o3_match_steps_down')`)
	want := `[{"id":"solbehave_o1_keeps_compile_rank","n":3,"reason":null,"run_value":3},` +
		`{"id":"solbehave_o2_match_steps_down","n":2,"reason":null,"run_value":1},` +
		`{"id":"solbehave_o3_match_steps_down","n":0,"reason":"the source view has no row this claim can be read from in this run (the oracle or stage it needs did not run)","run_value":null},` +
		`{"id":"solbehave_repair_keeps_rank","n":3,"reason":null,"run_value":1}]`
	if stagetest.JSON(got) != want {
		t.Fatalf("paper_claims %s\nwant %s", stagetest.JSON(got), want)
	}
}

// The budgets are run parameters: O1's --o1-calls, and one replay budget for
// O2 and O3's T, given where the run's two agree and a reason naming both
// where they do not. The first run that records a parameter gives it (a crawl
// records none).
func TestPaperClaimsBudgetsAreRunParameters(t *testing.T) {
	for _, c := range []struct {
		o3     string
		replay string
	}{{"1000", `"run_value":1000`}, {"500", `"reason":"O2's budget (--o2-budget 1000) and O3's T (--o3-budget 500) differ in this run: the sentence gives one budget for both"`}} {
		f := newFixture(t)
		putUnpartitioned(f, "runs", schemas.RunRow{RunID: "1", Parameters: `{}`},
			schemas.RunRow{RunID: "2", Parameters: `{"o1-calls": 10000, "o2-budget": 1000, "o3-budget": ` + c.o3 + `}`})
		got := stagetest.JSON(stagetest.QueryMaps(t, f.open("paper_claims"), `SELECT id, run_value, reason FROM paper_claims WHERE id IN ('solbehave_o1_fuzz_budget', 'solbehave_replay_budget')`))
		if !strings.Contains(got, `"id":"solbehave_o1_fuzz_budget","reason":null,"run_value":10000`) || !strings.Contains(got, c.replay) {
			t.Errorf("o3-budget %s: %s\nwant O1's 10000 and %s", c.o3, got, c.replay)
		}
	}
}
