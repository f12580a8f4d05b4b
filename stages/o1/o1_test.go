package o1

import (
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/solbehave/solbehave/internal/failure"
	"github.com/solbehave/solbehave/internal/fuzz"
	"github.com/solbehave/solbehave/internal/stagetest"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

const figure1Model = "import:figure1"

// vaultInputs writes the Vault's original, two reference samples (the
// original's own code, and an equivalent variant whose code differs) and the
// Figure 1 regenerated withdraw as one imported sample.
func vaultInputs(t *testing.T, env *pipeline.Env) string {
	rec := loadDemo(t, "Vault")
	origID := compile(t, env, rec, nil)
	variantID := equivalentVariant(t, env, rec)
	figID := stagetest.CompileReplacing(t, env, rec, stagetest.VaultWithdraw, stagetest.Figure1Withdraw)
	stagetest.WriteInputs(t, env, rec.Entry.ID, origID, []schemas.Sample{
		stagetest.Sample("reference", 0, origID, ""), stagetest.Sample("reference", 1, variantID, ""), stagetest.Sample(figure1Model, 0, figID, ""),
	})
	return rec.Entry.ID
}

func readResults(t *testing.T, env *pipeline.Env) ([]schemas.FuzzResult, []schemas.FuzzCounterexample) {
	t.Helper()
	results := stagetest.Rows(t, env, schemas.FuzzResults)
	cxs := stagetest.Rows(t, env, schemas.FuzzCounterexamples)
	return results, cxs
}

// TestVaultReferenceAndFigure1: reference samples are equivalent on every
// function, the original's own code without a call and the variant over the
// whole budget; the Figure 1 withdraw is not, and its counterexample is one
// initialize-free call.
func TestVaultReferenceAndFigure1(t *testing.T) {
	env := stagetest.NewEnv(t, stagetest.DemoCorpus)
	id := vaultInputs(t, env)
	stagetest.RunStage(t, env, New())
	results, cxs := readResults(t, env)
	if len(results) != 9 {
		t.Fatalf("%d fuzz_results rows, want 9 (3 samples x initialize, deposit, withdraw)", len(results))
	}
	for _, r := range results {
		wantEq := !(r.Model == figure1Model && r.Function == "withdraw")
		if r.Equivalent != wantEq {
			t.Errorf("%s/%d %s: equivalent=%v, want %v", r.Model, r.Sample, r.Signature, r.Equivalent, wantEq)
		}
		if sameCode := r.Model == "reference" && r.Sample == 0; sameCode {
			if r.StopReason != schemas.StopSameCode || r.Calls != 0 {
				t.Errorf("%s/%d %s: stop=%s after %d calls, want same_code without a call", r.Model, r.Sample, r.Signature, r.StopReason, r.Calls)
			}
			continue
		}
		if wantEq && (r.StopReason != fuzz.StopBudget || r.Calls != fuzz.DefaultCalls) {
			t.Errorf("%s/%d %s: stop=%s after %d calls, want the whole budget", r.Model, r.Sample, r.Signature, r.StopReason, r.Calls)
		}
		if r.ContractID != id || r.CoverageRef == 0 || r.CoverageSample == 0 || r.Selector == "" {
			t.Errorf("incomplete row %+v", r)
		}
	}
	if len(cxs) != 1 {
		t.Fatalf("%d counterexample rows, want 1: %+v", len(cxs), cxs)
	}
	cx := cxs[0]
	t.Logf("Figure 1 counterexample: %s%s value=%s block=%d: original %s (%s), regenerated %s return=%s",
		cx.Function, cx.Args, cx.ValueWei, cx.BlockNumber, cx.StatusRef, cx.RevertReasonRef, cx.StatusSample, cx.ReturnSample)
	if cx.Function != "withdraw" || cx.Args != `["0"]` || cx.StatusRef != schemas.StatusRevert ||
		cx.StatusSample != schemas.StatusSuccess || !cx.Diverges || cx.Steps != 1 {
		t.Errorf("want withdraw(0) reverting on the original and succeeding on the sample, got %+v", cx)
	}
	if deployer := strings.ToLower(loadDemo(t, "Vault").Deployer().Hex()); !strings.HasPrefix(cx.CallData, "0x2e1a7d4d") || cx.Sender != deployer {
		t.Errorf("call data %s / sender %s", cx.CallData, cx.Sender)
	}
}

// TestDeterministic: the same seed gives the same rows (elapsed_ms aside);
// a rerun with a current fingerprint is skipped.
func TestDeterministic(t *testing.T) {
	run := func() ([]schemas.FuzzResult, []schemas.FuzzCounterexample, *pipeline.Env) {
		env := stagetest.NewEnv(t, stagetest.DemoCorpus)
		vaultInputs(t, env)
		s := New()
		s.Calls = 3000
		stagetest.RunStage(t, env, s)
		results, cxs := readResults(t, env)
		for i := range results {
			results[i].ElapsedMS = 0
		}
		return results, cxs, env
	}
	r1, c1, env := run()
	r2, c2, _ := run()
	if !reflect.DeepEqual(r1, r2) || !reflect.DeepEqual(c1, c2) {
		t.Fatalf("two runs with seed 42 differ:\n%+v\n%+v", r1, r2)
	}
	s := New()
	s.Calls = 3000
	if c := stagetest.RunStage(t, env, s); c.Skipped != c.Units || c.Ran != 0 {
		t.Errorf("rerun: %+v, want every unit skipped", c)
	}
}

// TestUndeployedSampleIsNonEquivalent: a GiftToken sample whose
// constructor reverts counts as non-equivalent on every fuzzable function.
func TestUndeployedSampleIsNonEquivalent(t *testing.T) {
	env := stagetest.NewEnv(t, stagetest.DemoCorpus)
	rec := loadDemo(t, "GiftToken")
	origID := compile(t, env, rec, nil)
	badID := compile(t, env, rec, func(src string) string {
		return strings.Replace(src, "owner = msg.sender;\n", "require(initialSupply == 0);\n        owner = msg.sender;\n", 1)
	})
	stagetest.WriteInputs(t, env, rec.Entry.ID, origID, []schemas.Sample{stagetest.Sample(figure1Model, 0, badID, "")})
	stagetest.RunStage(t, env, New())
	results, cxs := readResults(t, env)
	if len(results) != 9 || len(cxs) != 0 {
		t.Fatalf("%d rows, %d counterexample rows; want 9 and 0", len(results), len(cxs))
	}
	for _, r := range results {
		if r.Equivalent || r.StopReason != schemas.StopUndeployed || r.Calls != 0 || !strings.Contains(r.Error, "revert") {
			t.Errorf("%s: %+v", r.Signature, r)
		}
	}
}

// TestTables checks table5_o1, sample_verdicts and table6_oracles on the
// Vault run, with O2 and O3 verdicts written by hand: O2 (a history without
// initialize) accepts the Figure 1 sample, O3 (fixed graphs) flags it.
func TestTables(t *testing.T) {
	env := stagetest.NewEnv(t, stagetest.DemoCorpus)
	id := vaultInputs(t, env)
	s := New()
	s.Calls = 2000
	stagetest.RunStage(t, env, s)
	db := stagetest.OpenViews(t, env)
	table5 := stagetest.QueryMaps(t, db, "SELECT model, n, functions_equivalent_rate, contracts_equivalent_rate, pairs FROM table5_o1 ORDER BY model")
	want5 := []map[string]any{
		{"model": figure1Model, "n": int64(1), "functions_equivalent_rate": 2.0 / 3, "contracts_equivalent_rate": 0.0, "pairs": int64(3)},
		{"model": "reference", "n": int64(1), "functions_equivalent_rate": 1.0, "contracts_equivalent_rate": 1.0, "pairs": int64(6)},
	}
	if !reflect.DeepEqual(table5, want5) {
		t.Errorf("table5_o1 = %v, want %v", table5, want5)
	}
	verdicts := stagetest.QueryMaps(t, db, "SELECT model, sample, divergent FROM sample_verdicts WHERE oracle = 'O1' ORDER BY model, sample")
	if len(verdicts) != 3 || verdicts[0]["divergent"] != true || verdicts[1]["divergent"] != false || verdicts[2]["divergent"] != false {
		t.Errorf("O1 sample verdicts: %v", verdicts)
	}
	if rows := stagetest.QueryMaps(t, db, "SELECT * FROM table6_oracles"); len(rows) != 0 {
		t.Errorf("table6_oracles without O2 verdicts: %v, want no rows (no contract evaluated by every oracle)", rows)
	}

	replay := func(oracle, setting, model string, sample int64, match bool) schemas.ReplayCall {
		status := schemas.StatusSuccess
		if !match {
			status = schemas.StatusRevert
		}
		profile := ""
		if oracle == "O3" {
			profile = "paper"
		}
		return schemas.ReplayCall{ContractID: id, Model: model, Sample: sample, Oracle: oracle, GraphSetting: setting,
			Profile: profile, StatusRef: schemas.StatusSuccess, StatusSample: status, StatusMatch: match}
	}
	stagetest.Write(t, env, schemas.ReplayCalls, id, "test", []schemas.ReplayCall{
		replay("O2", "", "reference", 0, true), replay("O2", "", "reference", 1, true), replay("O2", "", figure1Model, 0, true),
	})
	db = stagetest.OpenViews(t, env)
	table6 := stagetest.QueryMaps(t, db, "SELECT model, oracles, n, o1_only, o1_o3, none FROM table6_oracles ORDER BY model")
	want6 := []map[string]any{
		{"model": figure1Model, "oracles": "O1,O2", "n": int64(1), "o1_only": int64(1), "o1_o3": int64(0), "none": int64(0)},
		{"model": "reference", "oracles": "O1,O2", "n": int64(1), "o1_only": int64(0), "o1_o3": int64(0), "none": int64(1)},
	}
	if !reflect.DeepEqual(table6, want6) {
		t.Errorf("table6_oracles (O1, O2) = %v, want %v", table6, want6)
	}

	stagetest.Write(t, env, schemas.ReplayCalls, id, "o3", []schemas.ReplayCall{
		replay("O3", "fixed", figure1Model, 0, false), replay("O3", "matched", "reference", 0, false),
	})
	db = stagetest.OpenViews(t, env)
	table6 = stagetest.QueryMaps(t, db, "SELECT model, oracles, n, o1_only, o1_o3, none FROM table6_oracles ORDER BY model")
	want6 = []map[string]any{ // reference has O3 verdicts only on matched graphs: not evaluated
		{"model": figure1Model, "oracles": "O1,O2,O3", "n": int64(1), "o1_only": int64(0), "o1_o3": int64(1), "none": int64(0)},
	}
	if !reflect.DeepEqual(table6, want6) {
		t.Errorf("table6_oracles (O1, O2, O3) = %v, want %v", table6, want6)
	}
}

// TestPlanUnits: one unit per contract and model, only for kept contracts
// and compiling samples; bad flags are refused.
func TestPlanUnits(t *testing.T) {
	env := stagetest.NewEnv(t, stagetest.DemoCorpus)
	rec := loadDemo(t, "Vault")
	stagetest.WriteInputs(t, env, rec.Entry.ID, "a0", []schemas.Sample{
		stagetest.Sample("reference", 0, "a1", ""), stagetest.Sample("mutant", 0, "a2", ""), stagetest.Sample("mutant", 1, "a3", ""),
		{Model: "mutant", Sample: 2, CompiledRaw: false}, // did not compile
	})
	stagetest.Write(t, env, schemas.Contracts, "Other_0x1", "test", []schemas.Contract{{ContractID: "Other_0x1", Kept: false}})
	units, err := New().Plan(t.Context(), env)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, u := range units {
		ids = append(ids, u.ID)
		if u.ID == rec.Entry.ID+"/mutant" && len(u.Payload.(unit).samples) != 2 {
			t.Errorf("mutant unit holds %d samples, want 2", len(u.Payload.(unit).samples))
		}
	}
	sort.Strings(ids)
	if want := []string{rec.Entry.ID + "/mutant", rec.Entry.ID + "/reference"}; !reflect.DeepEqual(ids, want) {
		t.Errorf("units %v, want %v", ids, want)
	}
	bad := New()
	bad.Timeout = 0 * time.Second
	if _, err := bad.Plan(t.Context(), env); err == nil {
		t.Error("a zero timeout was accepted")
	}
}

// TestTimeoutFailsTheUnit: running out of --o1-timeout is no verdict: the
// unit fails as a retriable timeout, with no fuzz_results row.
func TestTimeoutFailsTheUnit(t *testing.T) {
	env := stagetest.NewEnv(t, stagetest.DemoCorpus)
	vaultInputs(t, env)
	s := New()
	s.Timeout = time.Nanosecond
	if c := stagetest.Run(t, env, s); c.Failed != c.Units || c.Units == 0 {
		t.Fatalf("%+v, want every unit failed", c)
	}
	results, cxs := readResults(t, env)
	if len(results)+len(cxs) != 0 {
		t.Errorf("%d fuzz_results and %d counterexample rows from campaigns cut by the clock, want none", len(results), len(cxs))
	}
	errs := stagetest.QueryMaps(t, stagetest.OpenViews(t, env), "SELECT class, retriable FROM errors")
	for _, e := range errs {
		if e["class"] != failure.Timeout.String() || e["retriable"] != true {
			t.Errorf("error row %v, want a retriable timeout", e)
		}
	}
}
