package fuzz

import (
	"context"
	"reflect"
	"testing"
)

// TestReferenceVaultIsEquivalent: the original recompiled as its own
// sample must pass every fuzzable function with the whole budget.
func TestReferenceVaultIsEquivalent(t *testing.T) {
	p := deployPair(t, loadDemo(t, "Vault"), nil)
	ref, sample := p.targets()
	methods := FuzzableMethods(p.orig.ABI)
	if got := len(methods); got != 3 {
		t.Fatalf("Vault has %d fuzzable functions, want 3 (initialize, deposit, withdraw)", got)
	}
	for _, m := range methods {
		rep, err := Differential(context.Background(), ref, sample, m, p.config(42))
		if err != nil {
			t.Fatal(err)
		}
		if !rep.Equivalent || rep.StopReason != StopBudget || rep.Calls != DefaultCalls {
			t.Errorf("%s: equivalent=%v stop=%s calls=%d, want equivalent over the whole budget", m.Sig, rep.Equivalent, rep.StopReason, rep.Calls)
		}
		if rep.CoverageRef != rep.CoverageSample || rep.CoverageRef.Instructions == 0 {
			t.Errorf("%s: coverage ref %+v sample %+v: identical code must cover the same", m.Sig, rep.CoverageRef, rep.CoverageSample)
		}
		t.Logf("%s: %d calls in %v, coverage %+v, corpus %d", m.Sig, rep.Calls, rep.Elapsed, rep.CoverageRef, rep.Corpus)
	}
}

// TestFigure1WithdrawDiverges: the regenerated withdraw of Figure 1 is
// caught within a few hundred calls and shrinks to one call.
func TestFigure1WithdrawDiverges(t *testing.T) {
	p := figure1Vault(t)
	ref, sample := p.targets()
	m := p.method(t, "withdraw")
	rep, err := Differential(context.Background(), ref, sample, m, p.config(42))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Equivalent || rep.StopReason != StopCounterexample || rep.Counterexample == nil {
		t.Fatalf("withdraw: equivalent=%v stop=%s, want a counterexample", rep.Equivalent, rep.StopReason)
	}
	if rep.Calls > 300 {
		t.Errorf("found after %d calls, want within a few hundred", rep.Calls)
	}
	cx := rep.Counterexample
	last := cx.Steps[len(cx.Steps)-1]
	if !last.Diverges() {
		t.Fatal("the counterexample's last step does not diverge")
	}
	for _, s := range cx.Steps[:len(cx.Steps)-1] {
		if s.Diverges() {
			t.Fatal("a step before the last diverges")
		}
	}
	t.Logf("found after %d calls (sequence of %d), shrunk in %d replays to %d step(s):", rep.Calls, cx.Found, cx.ShrinkRuns, len(cx.Steps))
	for i, s := range cx.Steps {
		t.Logf("  %d: withdraw%v value=%s block=%d ref{success=%v err=%q} sample{success=%v ret=%x}",
			i, s.Args.Strings(m.Inputs), s.Value.Dec(), s.Block.Number, s.Ref.Success, s.Ref.Err, s.Sample.Success, s.Sample.ReturnData)
	}
	// Uninitialised, the original reverts on require(initialized) whatever the
	// amount and the regenerated one returns: one call with amount 0 is the
	// smallest counterexample.
	if len(cx.Steps) != 1 || !last.Args[0].IsZero() || last.Ref.Success || !last.Sample.Success {
		t.Errorf("want the shrunk counterexample withdraw(0): original reverts, sample succeeds")
	}
	for _, name := range []string{"initialize", "deposit"} {
		rep, err := Differential(context.Background(), ref, sample, p.method(t, name), p.config(42))
		if err != nil {
			t.Fatal(err)
		}
		if !rep.Equivalent {
			t.Errorf("%s is unchanged by the edit but was found non-equivalent", name)
		}
	}
}

// TestDeterministic: the same seed gives the same report (timings aside);
// another seed explores differently.
func TestDeterministic(t *testing.T) {
	p := figure1Vault(t)
	ref, sample := p.targets()
	run := func(seed uint64, name string) *Report {
		rep, err := Differential(context.Background(), ref, sample, p.method(t, name), p.config(seed))
		if err != nil {
			t.Fatal(err)
		}
		rep.Elapsed = 0
		return rep
	}
	for _, name := range []string{"withdraw", "deposit"} {
		a, b := run(7, name), run(7, name)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: two runs with seed 7 differ:\n%+v\n%+v", name, a, b)
		}
	}
}
