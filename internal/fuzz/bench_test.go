package fuzz

import (
	"context"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/state"
	"github.com/ethereum/go-ethereum/core/tracing"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/ethereum/go-ethereum/params"
	"github.com/holiman/uint256"

	"github.com/solbehave/solbehave/internal/chain"
	"github.com/solbehave/solbehave/internal/cpuclock"
)

// benchCase is a function of a demo contract fuzzed against its reference
// sample (identical code, so every campaign runs its whole budget).
type benchCase struct {
	contract, function string
}

var benchCases = []benchCase{{"Vault", "deposit"}, {"GiftToken", "transfer"}}

// BenchmarkDifferential is the figure the issue asks for: differential call
// pairs per second on one core, coverage guidance included, and the time
// one function's whole 10,000-call budget takes. Each iteration runs, right
// after the campaign and on as many call pairs, the rungs below it: bare
// go-ethereum (bareRunner), the harness untraced, and the harness with the
// fuzzer's coverage hook; so the ratios (x-bare: campaign time over bare
// time; x-harness, x-traced likewise) are measured under the same load even
// on a busy machine.
func BenchmarkDifferential(b *testing.B) {
	for _, bc := range benchCases {
		b.Run(bc.contract+"."+bc.function, func(b *testing.B) {
			p := deployPair(b, loadDemo(b, bc.contract), nil)
			ref, sample := p.targets()
			m := p.method(b, bc.function)
			cfg := p.config(42)
			bare := newBareRunner(b, p, m, false)
			plain := newHarnessRunner(b, p, m, chain.Options{})
			traced := newHarnessRunner(b, p, m, newTracker().options())
			var fuzzTime, bareTime, plainTime, tracedTime time.Duration
			calls := 0
			timed := func(total *time.Duration, f func()) {
				start := time.Now()
				f()
				*total += time.Since(start)
			}
			b.ResetTimer()
			for b.Loop() {
				var rep *Report
				timed(&fuzzTime, func() {
					var err error
					if rep, err = Differential(context.Background(), ref, sample, m, cfg); err != nil || !rep.Equivalent {
						b.Fatalf("%v %+v", err, rep)
					}
				})
				calls += rep.Calls
				timed(&bareTime, func() { bare.run(b, rep.Calls) })
				timed(&plainTime, func() { plain.run(b, rep.Calls) })
				timed(&tracedTime, func() { traced.run(b, rep.Calls) })
			}
			b.ReportMetric(float64(calls)/fuzzTime.Seconds(), "pairs/s")
			b.ReportMetric(fuzzTime.Seconds()/float64(b.N), "s/budget")
			b.ReportMetric(float64(calls)/bareTime.Seconds(), "bare-pairs/s")
			b.ReportMetric(fuzzTime.Seconds()/bareTime.Seconds(), "x-bare")
			b.ReportMetric(fuzzTime.Seconds()/plainTime.Seconds(), "x-harness")
			b.ReportMetric(fuzzTime.Seconds()/tracedTime.Seconds(), "x-traced")
		})
	}
}

// harnessRunner drives the harness as the fuzzer does (fork every 20 calls,
// same call data on both deployments) with fixed inputs and no fuzzer.
type harnessRunner struct {
	p           *pair
	inputs      [][]byte
	ref, sample *chain.Harness
	block       chain.Block
	coverage    bool
}

func newHarnessRunner(b *testing.B, p *pair, m abi.Method, opts chain.Options) *harnessRunner {
	r := &harnessRunner{p: p, ref: p.orig.Chain.WithOptions(opts), sample: p.sample.Chain.WithOptions(opts),
		block: afterDeployment(p.orig.Block, 0), coverage: opts.Coverage}
	for _, t := range benchInputs(p, m.Inputs) {
		r.inputs = append(r.inputs, t.CallData(m))
	}
	return r
}

func (r *harnessRunner) run(b *testing.B, n int) {
	var total chain.Coverage
	var hr, hs *chain.Harness
	for i := range n {
		if i%DefaultSeqLen == 0 {
			if hr != nil {
				hr.Release()
				hs.Release()
			}
			hr, hs = r.ref.Fork(), r.sample.Fork()
		}
		data := r.inputs[i%len(r.inputs)]
		r1, err1 := hr.Call(r.p.orig.Deployer, r.p.orig.Address, data, nil, r.block)
		r2, err2 := hs.Call(r.p.orig.Deployer, r.p.sample.Address, data, nil, r.block)
		if err1 != nil || err2 != nil || r1.Success != r2.Success {
			b.Fatal(err1, err2)
		}
		if r.coverage { // what a fuzzer on chain's coverage API must do
			total.Merge(r1.Coverage)
			total.Merge(r2.Coverage)
		}
	}
	hr.Release()
	hs.Release()
}

// BenchmarkHarnessPairs is the harness alone, as the fuzzer drives it, with
// no coverage, with chain's coverage (Options.Coverage, merging each
// Result.Coverage into a total, as a fuzzer on that API would) and with the
// fuzzer's own coverage hook.
func BenchmarkHarnessPairs(b *testing.B) {
	for _, bc := range benchCases {
		for _, coverage := range []string{"none", "chain", "tracker"} {
			b.Run(bc.contract+"."+bc.function+"/coverage="+coverage, func(b *testing.B) {
				p := deployPair(b, loadDemo(b, bc.contract), nil)
				var opts chain.Options
				switch coverage {
				case "chain":
					opts.Coverage = true
				case "tracker":
					opts = newTracker().options()
				}
				r := newHarnessRunner(b, p, p.method(b, bc.function), opts)
				b.ResetTimer()
				r.run(b, b.N)
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pairs/s")
			})
		}
	}
}

// BenchmarkBareGeth is the floor of ../shared/FIELD-NOTES.md, measured here
// so the ratio is taken under the same load: two deployments in plain
// go-ethereum states called through evm.Call with the same arguments, state
// copied every 20 calls, no harness; the second variant has an OnOpcode hook
// that records program counters in a map.
func BenchmarkBareGeth(b *testing.B) {
	for _, bc := range benchCases {
		for _, hooked := range []bool{false, true} {
			name := bc.contract + "." + bc.function + "/hook=false"
			if hooked {
				name = bc.contract + "." + bc.function + "/hook=true"
			}
			b.Run(name, func(b *testing.B) {
				p := deployPair(b, loadDemo(b, bc.contract), nil)
				r := newBareRunner(b, p, p.method(b, bc.function), hooked)
				b.ResetTimer()
				r.run(b, b.N)
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pairs/s")
			})
		}
	}
}

// bareRunner calls two plain go-ethereum deployments of p's original.
type bareRunner struct {
	p           *pair
	inputs      [][]byte
	cfg         vm.Config
	ref, sample *state.StateDB
	addr        common.Address
	ctx         vm.BlockContext
}

func newBareRunner(b *testing.B, p *pair, m abi.Method, hooked bool) *bareRunner {
	r := &bareRunner{p: p, ctx: bareBlock(p)}
	for _, t := range benchInputs(p, m.Inputs) {
		r.inputs = append(r.inputs, t.CallData(m))
	}
	if hooked {
		pcs := map[uint64]struct{}{}
		r.cfg.Tracer = &tracing.Hooks{OnOpcode: func(pc uint64, _ byte, _, _ uint64, _ tracing.OpContext, _ []byte, _ int, _ error) {
			pcs[pc] = struct{}{}
		}}
	}
	code := creationCode(b, p)
	r.ref, r.addr = bareDeploy(b, p, code)
	r.sample, _ = bareDeploy(b, p, code)
	return r
}

func (r *bareRunner) run(b *testing.B, n int) {
	var er, es *vm.EVM
	for i := range n {
		if i%DefaultSeqLen == 0 {
			if er != nil {
				er.Release()
				es.Release()
			}
			er = vm.NewEVM(r.ctx, r.ref.Copy(), params.MainnetChainConfig, r.cfg)
			es = vm.NewEVM(r.ctx, r.sample.Copy(), params.MainnetChainConfig, r.cfg)
		}
		data := r.inputs[i%len(r.inputs)]
		_, _, err1 := er.Call(r.p.orig.Deployer, r.addr, data, vm.NewGasBudget(chain.DefaultGas, 0), new(uint256.Int))
		_, _, err2 := es.Call(r.p.orig.Deployer, r.addr, data, vm.NewGasBudget(chain.DefaultGas, 0), new(uint256.Int))
		if (err1 == nil) != (err2 == nil) {
			b.Fatal(err1, err2)
		}
	}
}

// benchInputs is a fixed list of fuzzer-made argument tuples.
func benchInputs(p *pair, args abi.Arguments) []Tuple {
	g := NewGenerator(1, p.config(1).Dictionary)
	out := make([]Tuple, 1024)
	for i := range out {
		out[i] = g.Tuple(args)
	}
	return out
}

func creationCode(b *testing.B, p *pair) []byte {
	code, err := p.orig.Contract.CreationCode(p.orig.Libraries)
	if err != nil {
		b.Fatal(err)
	}
	return append(code, p.orig.Args...)
}

// bareDeploy runs the creation in a fresh plain state, from the deployer at
// the recorded nonce.
func bareDeploy(b *testing.B, p *pair, code []byte) (*state.StateDB, common.Address) {
	s := chain.NewMemoryState()
	s.SetNonce(p.orig.Deployer, p.orig.Chain.Nonce(p.orig.Deployer)-1, tracing.NonceChangeUnspecified)
	evm := vm.NewEVM(bareBlockAt(p.orig.Block), s, params.MainnetChainConfig, vm.Config{})
	_, addr, _, err := evm.Create(p.orig.Deployer, code, vm.NewGasBudget(chain.DefaultGas, 0), new(uint256.Int))
	if err != nil {
		b.Fatal(err)
	}
	s.Finalise(params.MainnetChainConfig.Rules(new(big.Int).SetUint64(p.orig.Block.Number), false, p.orig.Block.Time))
	return s, addr
}

func bareBlock(p *pair) vm.BlockContext { return bareBlockAt(afterDeployment(p.orig.Block, 0)) }

// bareBlockAt is the harness's block context, so both run the same code paths.
func bareBlockAt(blk chain.Block) vm.BlockContext {
	return chain.BlockContext(params.MainnetChainConfig, blk, chain.BlockGasLimit)
}

// BenchmarkMemo fuzzes every fuzzable function of the reference GiftToken
// (the whole 10,000-call budget each) with the call memo and without it
// (Config.NoMemo), one right after the other, and reports the CPU time of
// each (this process: the campaigns run here) and the share of calls the
// memo answered.
func BenchmarkMemo(b *testing.B) {
	p := deployPair(b, loadDemo(b, "GiftToken"), nil)
	ref, sample := p.targets()
	var with, without time.Duration
	memoised, calls := 0, 0
	for b.Loop() {
		for _, m := range FuzzableMethods(p.orig.ABI) {
			for _, off := range []bool{false, true} {
				cfg := p.config(42)
				cfg.NoMemo = off
				before := cpuclock.Process()
				rep, err := Differential(context.Background(), ref, sample, m, cfg)
				spent := cpuclock.Process() - before
				if err != nil {
					b.Fatal(err)
				}
				if off {
					without += spent
				} else {
					with, memoised, calls = with+spent, memoised+rep.Memoised, calls+2*rep.Calls
				}
			}
		}
	}
	b.ReportMetric(float64(with.Milliseconds())/float64(b.N), "memo-cpu-ms")
	b.ReportMetric(float64(without.Milliseconds())/float64(b.N), "no-memo-cpu-ms")
	b.ReportMetric(float64(memoised)/float64(max(calls, 1)), "memoised-share")
}
