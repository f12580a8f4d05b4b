package replay

import (
	"context"
	"sync"

	"github.com/ethereum/go-ethereum/accounts/abi"

	"github.com/solbehave/solbehave/internal/chain"
	"github.com/solbehave/solbehave/internal/deploy"
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
	if r.Ref, err = r.replayAll(ctx, orig); err != nil {
		return nil, err
	}
	r.Samples = make([]SampleResult, len(samples))
	errs := make([]error, len(samples))
	parallel(len(samples), opts.Workers, func(i int) {
		r.Samples[i].Sample = samples[i]
		if d := samples[i].Deployment; d != nil {
			r.Samples[i].Traces, errs[i] = r.replayAll(ctx, d)
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
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(workers, n); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
}

func (r *Result) replayAll(ctx context.Context, d *deploy.Deployment) ([]*Trace, error) {
	traces := make([]*Trace, len(r.Sequences))
	for i, seq := range r.Sequences {
		t, err := r.replay(ctx, d, seq)
		if err != nil {
			return nil, err
		}
		traces[i] = t
	}
	return traces, nil
}

// replay runs one sequence on a fresh fork of d's post-deployment state.
func (r *Result) replay(ctx context.Context, d *deploy.Deployment, seq Sequence) (*Trace, error) {
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
		t.Outcomes = append(t.Outcomes, send(h, d, c))
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
