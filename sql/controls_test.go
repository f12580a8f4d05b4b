package sqlviews_test

import (
	"testing"

	"github.com/solbehave/solbehave/internal/stagetest"
	"github.com/solbehave/solbehave/schemas"
)

// The controls (mutant, reference) are reported beside the models, never
// inside an aggregate over them: one LLM model m beside both controls, which
// compile every sample and are fuzzed on a contract m never compiled (C).
// With a control inside, Table VII's row over the models would average three
// generators (mean 0.75, not m's 0.25), Table V's N would count C (2, not 1),
// and paper_claims would count three models; the controls' own Table VII rows
// must be there, beside.
func TestControlsBesideNeverInsideTheModels(t *testing.T) {
	f := newFixture(t)
	for _, c := range []string{"A", "B", "C"} {
		put(f, "contracts", c, schemas.Contract{ContractID: c, NNontrivialFunctions: 3, SizeBucket: schemas.SizeBucket(3), Kept: true})
		var rows []schemas.Sample
		for i := int64(0); i < 2; i++ {
			if c != "C" {
				// m compiles one sample of two on A, none on B, and has no sample on C
				rows = append(rows, schemas.Sample{ContractID: c, Model: "m", Sample: i, Generator: "openai", CompiledRepaired: c == "A" && i == 0})
			}
			for _, ctl := range []string{"mutant", "reference"} {
				rows = append(rows, schemas.Sample{ContractID: c, Model: ctl, Sample: i, Generator: ctl, CompiledRepaired: true})
			}
		}
		put(f, "samples", c, rows...)
	}
	fuzz := func(c, m string, eq bool) schemas.FuzzResult {
		return schemas.FuzzResult{ContractID: c, Model: m, Function: "f", Signature: "f()", Equivalent: eq}
	}
	put(f, "fuzz_results", "A", fuzz("A", "m", true), fuzz("A", "reference", true), fuzz("A", "mutant", false))
	put(f, "fuzz_results", "C", fuzz("C", "reference", true), fuzz("C", "mutant", false))
	db := f.open("table7_size", "table5_o1", "contract_outcomes", "paper_claims")

	got := stagetest.QueryMaps(t, db, `SELECT model, bin_low, models, compile_mean_rate AS mean, compile_min_rate AS lo, compile_max_rate AS hi,
		samples_per_model, compiling_min, compiling_max, models_compiling_min FROM table7_size ORDER BY model`)
	want := `[{"bin_low":1,"compiling_max":1,"compiling_min":1,"hi":0.25,"lo":0.25,"mean":0.25,"model":"","models":1,"models_compiling_min":1,"samples_per_model":4},` +
		`{"bin_low":1,"compiling_max":6,"compiling_min":6,"hi":1,"lo":1,"mean":1,"model":"mutant","models":1,"models_compiling_min":1,"samples_per_model":6},` +
		`{"bin_low":1,"compiling_max":6,"compiling_min":6,"hi":1,"lo":1,"mean":1,"model":"reference","models":1,"models_compiling_min":1,"samples_per_model":6}]`
	if stagetest.JSON(got) != want {
		t.Errorf("table7_size:\n%s\nwant the models' row (m alone) and one row per control beside it:\n%s", stagetest.JSON(got), want)
	}
	got = stagetest.QueryMaps(t, db, `SELECT model, n, contracts_equivalent_rate AS rate FROM table5_o1 ORDER BY model`)
	if want := `[{"model":"m","n":1,"rate":1},{"model":"mutant","n":1,"rate":0},{"model":"reference","n":1,"rate":1}]`; stagetest.JSON(got) != want {
		t.Errorf("table5_o1 (N over the LLM models: A, not C, which only the controls fuzzed):\n%s\nwant %s", stagetest.JSON(got), want)
	}
	got = stagetest.QueryMaps(t, db, `SELECT DISTINCT contract_id FROM contract_outcomes WHERE measure = 'o1_contract_equivalent' ORDER BY 1`)
	if want := `[{"contract_id":"A"}]`; stagetest.JSON(got) != want {
		t.Errorf("contract_outcomes' Table V contracts %s, want %s", stagetest.JSON(got), want)
	}
	got = stagetest.QueryMaps(t, db, `SELECT id, run_value FROM paper_claims
		WHERE id IN ('solbehave_models', 'solbehave_fuzzable_contracts', 'solbehave_size_compile_mean_1', 'solbehave_size_samples_per_model_26') ORDER BY id`)
	want = `[{"id":"solbehave_fuzzable_contracts","run_value":1},{"id":"solbehave_models","run_value":1},` +
		`{"id":"solbehave_size_compile_mean_1","run_value":0.25},{"id":"solbehave_size_samples_per_model_26","run_value":null}]`
	if stagetest.JSON(got) != want {
		t.Errorf("paper_claims over the models:\n%s\nwant %s", stagetest.JSON(got), want)
	}
}

// A run of the controls alone (the demo's defaults) still has Table V: its N
// is the controls' contracts, and Table VII has each control's rows and no
// row over the models.
func TestControlsAloneKeepTheirRows(t *testing.T) {
	f := newFixture(t)
	put(f, "contracts", "A", schemas.Contract{ContractID: "A", NNontrivialFunctions: 7, SizeBucket: schemas.SizeBucket(7), Kept: true})
	put(f, "samples", "A", schemas.Sample{ContractID: "A", Model: "mutant", Generator: "mutant", CompiledRepaired: true},
		schemas.Sample{ContractID: "A", Model: "reference", Generator: "reference", CompiledRepaired: true})
	put(f, "fuzz_results", "A", schemas.FuzzResult{ContractID: "A", Model: "reference", Function: "f", Signature: "f()", Equivalent: true})
	db := f.open("table7_size", "table5_o1")
	got := stagetest.QueryMaps(t, db, `SELECT model, functions FROM table7_size ORDER BY model`)
	if want := `[{"functions":"6-10","model":"mutant"},{"functions":"6-10","model":"reference"}]`; stagetest.JSON(got) != want {
		t.Errorf("table7_size %s, want %s", stagetest.JSON(got), want)
	}
	got = stagetest.QueryMaps(t, db, `SELECT model, n FROM table5_o1 ORDER BY model`)
	if want := `[{"model":"mutant","n":1},{"model":"reference","n":1}]`; stagetest.JSON(got) != want {
		t.Errorf("table5_o1 %s, want %s", stagetest.JSON(got), want)
	}
}
