package replay

import (
	"context"

	"golang.org/x/sync/errgroup"

	"github.com/ethereum/go-ethereum/accounts/abi"

	"github.com/solbehave/solbehave/internal/chain"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/schemas"
)

// DefaultGasTolerance is the relative gas deviation tolerated before a call
// is flagged (§IV-F(b): ±10%).
const DefaultGasTolerance = 0.10

// Options tune a comparison.
type Options struct {
	// SnapshotEvery reads the zero-argument views every that many calls (and
	// before the first and after the last call of each sequence); 0: never.
	SnapshotEvery int
	// GasTolerance is the relative gas deviation flagged; 0: DefaultGasTolerance.
	GasTolerance float64
	// Workers replays that many samples at once; 0 or 1: one at a time (a
	// pipeline stage already runs units in parallel).
	Workers int
}

func (o Options) gasTolerance() float64 {
	if o.GasTolerance > 0 {
		return o.GasTolerance
	}
	return DefaultGasTolerance
}

// Sample is one sample under comparison.
type Sample struct {
	Model  string
	Sample int64
	// Deployment is the sample deployed like the original (deploy.DeploySample);
	// nil when it could not be, with DeployErr saying why.
	Deployment *deploy.Deployment
	DeployErr  string
}

// Trace is what one sequence did on one deployment.
type Trace struct {
	Outcomes  []Outcome // one per call
	Snapshots []Snapshot
}

// SampleResult is one sample's traces, one per sequence (nil when undeployed).
type SampleResult struct {
	Sample Sample
	Traces []*Trace
}

// Result is a whole comparison: the original's traces and every sample's.
type Result struct {
	ABI       abi.ABI // the original's: names selectors and views
	Views     []View
	Sequences []Sequence
	Ref       []*Trace // one per sequence
	Samples   []SampleResult
	opts      Options
}

// Compare replays every sequence on the original and on every sample, each
// run on a fresh fork of its deployment. Only a cancelled context stops it:
// a call the harness cannot run is recorded with status "error".
func Compare(ctx context.Context, orig *deploy.Deployment, samples []Sample, seqs []Sequence, opts Options) (*Result, error) {
	r := &Result{ABI: orig.ABI, Views: ZeroArgViews(orig.ABI), Sequences: seqs, opts: opts}
	if opts.SnapshotEvery <= 0 {
		r.Views = nil
	}
	var err error
	if r.Ref, err = r.replayAll(ctx, orig, nil); err != nil {
		return nil, err
	}
	r.Samples = make([]SampleResult, len(samples))
	errs := make([]error, len(samples))
	parallel(len(samples), opts.Workers, func(i int) {
		r.Samples[i].Sample = samples[i]
		if d := samples[i].Deployment; d != nil {
			r.Samples[i].Traces, errs[i] = r.replayAll(ctx, d, r.Ref)
		}
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return r, nil
}

// parallel runs f(0..n-1) on up to workers goroutines.
func parallel(n, workers int, f func(i int)) {
	if workers <= 1 {
		for i := 0; i < n; i++ {
			f(i)
		}
		return
	}
	var g errgroup.Group
	g.SetLimit(workers)
	for i := 0; i < n; i++ {
		g.Go(func() error { f(i); return nil })
	}
	g.Wait()
}

// replayAll replays every sequence on d; ref is the original's traces when d
// is a sample (nil for the original itself).
func (r *Result) replayAll(ctx context.Context, d *deploy.Deployment, ref []*Trace) ([]*Trace, error) {
	traces := make([]*Trace, len(r.Sequences))
	for i, seq := range r.Sequences {
		var refTrace *Trace
		if ref != nil {
			refTrace = ref[i]
		}
		t, err := r.replay(ctx, d, seq, refTrace)
		if err != nil {
			return nil, err
		}
		traces[i] = t
	}
	return traces, nil
}

// replay runs one sequence on a fresh fork of d's post-deployment state. ref
// is the original's trace of seq when d is a sample, nil otherwise.
func (r *Result) replay(ctx context.Context, d *deploy.Deployment, seq Sequence, ref *Trace) (*Trace, error) {
	h := d.Chain.Fork()
	t := &Trace{Outcomes: make([]Outcome, 0, len(seq.Calls))}
	every := r.opts.SnapshotEvery
	block := d.Block
	if every > 0 {
		t.Snapshots = append(t.Snapshots, readViews(h, d.Deployer, d.Address, r.Views, block, 0))
	}
	for i, c := range seq.Calls {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		o := send(h, d, c)
		if ref != nil && ref.Outcomes[i].Status != o.Status {
			o.GasLimited = gasLimited(h, d, c, ref.Outcomes[i], o)
		}
		t.Outcomes = append(t.Outcomes, o)
		block = c.Block
		if n := i + 1; every > 0 && (n%every == 0 || n == len(seq.Calls)) {
			t.Snapshots = append(t.Snapshots, readViews(h, d.Deployer, d.Address, r.Views, block, n))
		}
	}
	return t, nil
}

// send applies one call to d's address on h; a probe runs on a throwaway fork.
func send(h *chain.Harness, d *deploy.Deployment, c Call) Outcome {
	if c.Probe {
		h = h.Fork()
	}
	to := d.Address
	res, err := h.Apply(chain.Msg{From: c.From, To: &to, Data: c.Data, Value: c.Value, Gas: c.Gas, Block: c.Block})
	return observe(res, err)
}

// gasLimited reports whether a sample's call that disagreed with the original
// failed only for want of gas: it failed under an explicit gas limit below
// chain.DefaultGas and, re-run with chain.DefaultGas, gets the original's
// status. h holds the state after the failed call, which is the pre-call
// state but for the sender's nonce (a failed transaction's effects are
// reverted, and gas is free here), so the re-run goes on a fork of h with
// that nonce restored. Status stays the divergence criterion; this only
// marks the divergences gas alone decides (§IV-F).
func gasLimited(h *chain.Harness, d *deploy.Deployment, c Call, ref, got Outcome) bool {
	if c.Probe || c.Gas == 0 || c.Gas >= chain.DefaultGas {
		return false
	}
	if got.Status != schemas.StatusRevert || ref.Status != schemas.StatusSuccess {
		return false
	}
	f := h.Fork()
	defer f.Release()
	if n := f.Nonce(c.From); n > 0 {
		f.SetNonce(c.From, n-1)
	}
	c.Gas = chain.DefaultGas
	return send(f, d, c).Status == ref.Status
}
