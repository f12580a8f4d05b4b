package fuzz

import (
	"context"
	"testing"

	"github.com/ethereum/go-ethereum/core/tracing"

	"github.com/solbehave/solbehave/internal/chain"
)

// TestUnreproducedDisagreementIsNoCounterexample: a disagreement that the
// inputs did not cause (here one fault in the sample's harness while
// fuzzing, as a watchdog cut by a stalled machine gave) does not replay from
// the fresh deployments, so it is counted as unconfirmed and fuzzing goes on
// to the end of the budget with the reference still equivalent.
func TestUnreproducedDisagreementIsNoCounterexample(t *testing.T) {
	p := deployPair(t, loadDemo(t, "Vault"), nil)
	ref, sample := p.targets()
	cfg := p.config(42)
	cfg.Calls = 300
	c := newCampaign(ref, sample, p.method(t, "deposit"), cfg.withDefaults())
	c.sample.base = sample.Chain.WithOptions(chain.Options{Hooks: faultOnce(c.sample.cov.options().Hooks, 2000)})
	if err := c.run(context.Background()); err != nil {
		t.Fatal(err)
	}
	rep := c.report()
	if !rep.Equivalent || rep.Counterexample != nil || rep.StopReason != StopBudget || rep.Calls != cfg.Calls {
		t.Errorf("equivalent=%v stop=%s calls=%d counterexample=%+v, want equivalent over the whole budget",
			rep.Equivalent, rep.StopReason, rep.Calls, rep.Counterexample)
	}
	if rep.Unconfirmed != 1 {
		t.Errorf("unconfirmed %d, want the one injected fault", rep.Unconfirmed)
	}
}

// faultOnce is hooks whose opcode observer panics once, at the nth opcode
// it sees (the harness turns the panic into a fault of that call).
func faultOnce(hooks *tracing.Hooks, n int) *tracing.Hooks {
	seen, inner := 0, hooks.OnOpcode
	out := *hooks
	out.OnOpcode = func(pc uint64, op byte, gas, cost uint64, scope tracing.OpContext, rData []byte, depth int, err error) {
		inner(pc, op, gas, cost, scope, rData, depth, err)
		if seen++; seen == n {
			panic("injected fault")
		}
	}
	return &out
}
