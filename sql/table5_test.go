package sqlviews_test

import (
	"testing"

	"github.com/solbehave/solbehave/internal/stagetest"
	"github.com/solbehave/solbehave/schemas"
)

// fuzzed is one O1 row: model m's sample 0, function fn on contract c.
func fuzzed(c, m, fn string, equivalent bool) schemas.FuzzResult {
	return schemas.FuzzResult{ContractID: c, Model: m, Function: fn, Equivalent: equivalent}
}

// Table V counts every model over the same N (contracts with a fuzz row under
// any model): model "weak" compiles only on A, where it is equivalent, so it
// has 1 of 2 contracts equivalent, not 1 of 1.
func TestTable5CountsEveryModelOverTheFixedN(t *testing.T) {
	f := newFixture(t)
	put(f, "fuzz_results", "A", fuzzed("A", "strong", "f", true), fuzzed("A", "weak", "f", true))
	put(f, "fuzz_results", "B", fuzzed("B", "strong", "f", true), fuzzed("B", "strong", "g", false))
	db := f.open("table5_o1")
	got := stagetest.QueryMaps(t, db, `SELECT model, n, contracts_equivalent_rate, functions_equivalent_rate, pairs, n_compiling, contracts_equivalent_compiling_rate FROM table5_o1`)
	want := `[{"contracts_equivalent_compiling_rate":0.5,"contracts_equivalent_rate":0.5,"functions_equivalent_rate":0.6666666666666666,"model":"strong","n":2,"n_compiling":2,"pairs":3},` +
		`{"contracts_equivalent_compiling_rate":1,"contracts_equivalent_rate":0.5,"functions_equivalent_rate":1,"model":"weak","n":2,"n_compiling":1,"pairs":1}]`
	if stagetest.JSON(got) != want {
		t.Fatalf("table5_o1 %s\nwant %s", stagetest.JSON(got), want)
	}
	ci := stagetest.QueryMaps(t, db, `SELECT contracts_equivalent_rate_ci_low AS lo, contracts_equivalent_rate_ci_high AS hi FROM table5_o1 WHERE model = 'weak'`)
	if lo, hi := ci[0]["lo"].(float64), ci[0]["hi"].(float64); lo < 0 || lo > 0.5 || hi < 0.5 || hi > 1 || lo == hi {
		t.Errorf("weak's interval [%v, %v], want one around 0.5 within [0, 1]", lo, hi)
	}
}
