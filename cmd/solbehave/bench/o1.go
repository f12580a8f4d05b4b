package bench

import (
	"context"
	"time"

	"github.com/solbehave/solbehave/internal/chain"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/fuzz"
	"github.com/solbehave/solbehave/internal/solc"
)

// o1 fuzzes the contract's first fuzzable functions differentially, the
// original against a second build of its source, on one goroutine: O1 call
// pairs per second per core. The builds are the same code, so a campaign
// runs its whole budget unless the deployments really disagree (counted).
func (b *bencher) o1(ctx context.Context, cr *contractRun, rec *deploy.Record, d *deploy.Deployment, rebuilt *solc.Output) {
	if cr.Skip != "" || rebuilt == nil || b.cfg.FuzzCalls == 0 || b.cfg.FuzzFunctions == 0 {
		return
	}
	methods := fuzz.FuzzableMethods(d.ABI)
	if len(methods) > b.cfg.FuzzFunctions {
		methods = methods[:b.cfg.FuzzFunctions]
	}
	cr.O1Functions = len(methods)
	if len(methods) == 0 {
		return
	}
	sample, err := deploy.DeploySample(rec, d, rebuilt, chain.Options{})
	if err != nil {
		cr.O1Err = "sample deployment: " + err.Error()
		return
	}
	dict := fuzz.NewDictionary()
	dict.AddBytecode(d.Chain.Code(d.Address))
	ref, smp := fuzz.Target{Chain: d.Chain, Address: d.Address}, fuzz.Target{Chain: sample.Chain, Address: sample.Address}
	for run := range b.cfg.Runs {
		calls, elapsed := 0, time.Duration(0)
		for _, m := range methods {
			cfg := fuzz.Config{Calls: b.cfg.FuzzCalls, Seed: uint64(42 + run), Sender: d.Deployer, Block: d.Block,
				Timeout: time.Minute, Dictionary: dict}
			rep, err := fuzz.Differential(ctx, ref, smp, m, cfg)
			if err != nil {
				cr.O1Err = m.Sig + ": " + err.Error()
				return
			}
			calls += rep.Calls
			elapsed += rep.Elapsed
			if !rep.Equivalent && run == 0 {
				cr.O1Divergences++
			}
		}
		cr.O1Calls = append(cr.O1Calls, calls)
		cr.O1Time = append(cr.O1Time, elapsed)
	}
}
