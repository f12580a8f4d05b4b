package fuzz

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/solbehave/solbehave/internal/walltime"
)

// TestReferenceVaultIsEquivalent: the original recompiled as its own
// sample must pass every fuzzable function with the whole budget.
func TestReferenceVaultIsEquivalent(t *testing.T) {
	p := deployPair(t, loadDemo(t, "Vault"), nil)
	methods := FuzzableMethods(p.orig.ABI)
	if got := len(methods); got != 3 {
		t.Fatalf("Vault has %d fuzzable functions, want 3 (initialize, deposit, withdraw)", got)
	}
	for _, m := range methods {
		rep := p.fuzz(t, m, p.config(42))
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
	m := p.method(t, "withdraw")
	rep := p.fuzz(t, m, p.config(42))
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
		rep := p.fuzz(t, p.method(t, name), p.config(42))
		if !rep.Equivalent {
			t.Errorf("%s is unchanged by the edit but was found non-equivalent", name)
		}
	}
}

// TestDeterministic: the same seed gives the same report, counterexample
// included (timings aside). (TestGeneratorDeterministic checks that another
// seed draws other values.)
func TestDeterministic(t *testing.T) {
	p := figure1Vault(t)
	run := func(seed uint64, name string) *Report {
		cfg := p.config(seed)
		cfg.Calls = 3000
		rep := p.fuzz(t, p.method(t, name), cfg)
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

// TestReferenceGiftTokenIsEquivalent: every fuzzable function of the token
// passes against itself (a shorter budget keeps the test fast).
func TestReferenceGiftTokenIsEquivalent(t *testing.T) {
	p := deployPair(t, loadDemo(t, "GiftToken"), nil)
	methods := FuzzableMethods(p.orig.ABI)
	var sigs []string
	for _, m := range methods {
		sigs = append(sigs, m.Sig)
	}
	want := []string{"approve(address,uint256)", "buy()", "disableSale()", "enableSale()", "setBuyPrice(uint256)",
		"transfer(address,uint256)", "transferFrom(address,address,uint256)", "transferOwnership(address)", "withdrawEth()"}
	if !reflect.DeepEqual(sigs, want) {
		t.Fatalf("fuzzable functions %v, want %v", sigs, want)
	}
	cfg := p.config(42)
	cfg.Calls = 2000
	for _, m := range methods {
		rep := p.fuzz(t, m, cfg)
		t.Logf("%s: %d calls in %v, coverage %+v corpus %d", m.Sig, rep.Calls, rep.Elapsed, rep.CoverageRef, rep.Corpus)
		if !rep.Equivalent || rep.Calls != cfg.Calls {
			t.Errorf("%s: equivalent=%v after %d calls (%+v)", m.Sig, rep.Equivalent, rep.Calls, rep.Counterexample)
		}
	}
}

// TestGiftTokenOffByOne: transfer refusing to move the whole balance
// (`>` for `>=`) differs only for amount = the sender's balance, the
// constructor's 10^14: the dictionary (constructor arguments) finds it.
func TestGiftTokenOffByOne(t *testing.T) {
	rec := loadDemo(t, "GiftToken")
	p := deployPair(t, rec, func(src string) string {
		return strings.Replace(src, "if (balances[msg.sender] >= _amount && _amount > 0", "if (balances[msg.sender] > _amount && _amount > 0", 1)
	})
	rep, m := p.counterexample(t, "transfer")
	cx := rep.Counterexample
	last := cx.Steps[len(cx.Steps)-1]
	t.Logf("found after %d calls; shrunk from %d to %d step(s) in %d replays; last: transfer%v ref=%x sample=%x",
		rep.Calls, cx.Found, len(cx.Steps), cx.ShrinkRuns, last.Args.Strings(m.Inputs), last.Ref.ReturnData, last.Sample.ReturnData)
	if len(cx.Steps) != 1 || last.Args[1].Dec() != "100000000000000" || last.Args[0].IsZero() == false {
		t.Errorf("want the shrunk counterexample transfer(0x0, 10^14) (true on the original, false on the sample)")
	}
	if !last.Ref.Success || !last.Sample.Success {
		t.Errorf("both calls should succeed and return different booleans")
	}
}

// TestGiftTokenDroppedRequire: setBuyPrice without its `> 0` check accepts
// 0; the type boundary finds it.
func TestGiftTokenDroppedRequire(t *testing.T) {
	p := deployPair(t, loadDemo(t, "GiftToken"), func(src string) string {
		return strings.Replace(src, "require(newTokensPerEth > 0);", "", 1)
	})
	rep, m := p.counterexample(t, "setBuyPrice")
	last := rep.Counterexample.Steps[len(rep.Counterexample.Steps)-1]
	if !last.Args[0].IsZero() || last.Ref.Success || !last.Sample.Success {
		t.Errorf("want setBuyPrice(0): reverts on the original, succeeds on the sample; got %v", last.Args.Strings(m.Inputs))
	}
}

// TestShrinkKeepsNeededPrefix: a deposit that refuses to overflow differs
// from the original's silent wrap-around only once an earlier deposit has
// filled the balance: the counterexample needs two calls, and shrinking
// keeps both but makes the first as small as it can be.
func TestShrinkKeepsNeededPrefix(t *testing.T) {
	p := deployPair(t, loadDemo(t, "Vault"), func(src string) string {
		return strings.Replace(src, "balance += amount;", "require(balance + amount >= balance);\n        balance += amount;", 1)
	})
	rep, _ := p.counterexample(t, "deposit")
	cx := rep.Counterexample
	var got []string
	for _, s := range cx.Steps {
		got = append(got, s.Args[0].Dec())
	}
	t.Logf("found after %d calls in a sequence of %d; shrunk in %d replays to %v", rep.Calls, cx.Found, cx.ShrinkRuns, got)
	max := "115792089237316195423570985008687907853269984665640564039457584007913129639935"
	if !reflect.DeepEqual(got, []string{"1", max}) {
		t.Errorf("shrunk to deposits %v, want [1 2^256-1]", got)
	}
	if !cx.Steps[0].Ref.Success || !cx.Steps[0].Sample.Success || !cx.Steps[1].Ref.Success || cx.Steps[1].Sample.Success {
		t.Error("want the first deposit accepted by both, the second only by the original")
	}
}

// TestTimeoutAndCancel: a campaign out of time is no result (a
// walltime.Error, which the pipeline records as a retriable timeout); a
// cancelled one returns the context's error.
func TestTimeoutAndCancel(t *testing.T) {
	p := deployPair(t, loadDemo(t, "Vault"), nil)
	ref, sample := p.targets()
	cfg := p.config(1)
	cfg.Timeout = time.Nanosecond
	rep, err := Differential(context.Background(), ref, sample, p.method(t, "deposit"), cfg)
	if !walltime.Is(err) || rep != nil {
		t.Errorf("timeout: %+v %v, want a walltime.Error and no report", rep, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Differential(ctx, ref, sample, p.method(t, "deposit"), p.config(1)); err == nil {
		t.Error("a cancelled campaign returned no error")
	}
	if _, err := Differential(context.Background(), ref, sample, p.orig.ABI.Methods["balance"], p.config(1)); err == nil {
		t.Error("a view function was fuzzed")
	}
}

// TestCallsHaveTheGasLimit: with a limit too small for transfer's storage
// writes, every call runs out of gas on both deployments, so the campaign
// reaches less code than under the default limit and stays equivalent.
func TestCallsHaveTheGasLimit(t *testing.T) {
	p := deployPair(t, loadDemo(t, "GiftToken"), nil)
	ref, sample := p.targets()
	m := p.method(t, "transfer")
	run := func(gas uint64) *Report {
		cfg := p.config(42)
		cfg.Calls, cfg.Gas = 300, gas
		rep, err := Differential(context.Background(), ref, sample, m, cfg)
		if err != nil || !rep.Equivalent {
			t.Fatalf("gas %d: %v %+v", gas, err, rep)
		}
		return rep
	}
	starved, full := run(30_000), run(0)
	if starved.CoverageRef.Instructions >= full.CoverageRef.Instructions {
		t.Errorf("a 30,000 gas limit reached %d instructions, the default %d: the limit is not applied",
			starved.CoverageRef.Instructions, full.CoverageRef.Instructions)
	}
}

// TestGasBudgetEndsACampaign: a function whose calls loop until they run
// out of gas stops on the gas budget, a count, so two runs stop at the same
// call whatever the machine does meanwhile.
func TestGasBudgetEndsACampaign(t *testing.T) {
	rec := loadDemo(t, "Vault")
	file, src := onlyFile(t, rec)
	end := strings.LastIndex(src, "}")
	rec.Files.Files[file] = src[:end] + `
    function spin(uint256 n) public { uint256 x; for (uint256 i = 0; i < n; i++) { x += i; } if (x == 1) revert(); }
}
`
	p := deployPair(t, rec, nil)
	cfg := p.config(42)
	cfg.Gas, cfg.GasBudget = 1_000_000, 20_000_000
	var calls []int
	for range 2 {
		rep := p.fuzz(t, p.method(t, "spin"), cfg)
		if rep.StopReason != StopGasBudget || !rep.Equivalent || rep.GasUsed < cfg.GasBudget || rep.Calls >= DefaultCalls {
			t.Fatalf("%+v, want equivalent until the gas budget", rep)
		}
		calls = append(calls, rep.Calls)
	}
	if calls[0] != calls[1] {
		t.Errorf("two runs stopped after %v calls", calls)
	}
}
