package fuzz

import (
	"context"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/holiman/uint256"

	"github.com/solbehave/solbehave/internal/chain"
	"github.com/solbehave/solbehave/internal/walltime"
)

// timeCheckEvery is how many calls run between looks at the clock and the
// context.
const timeCheckEvery = 64

// side is one deployment under fuzzing: its pristine state (forked, never
// run on), the fork of the current sequence, its coverage and the calls it
// need not run again.
type side struct {
	target Target
	cov    *tracker
	base   *chain.Harness // target's state with the coverage hook; forked per sequence
	cur    *chain.Harness
	memo   *callMemo
}

// campaign is the state of one Differential run.
type campaign struct {
	cfg     Config
	method  abi.Method
	gen     *Generator
	ref     side
	sample  side
	corpus  []Call
	seq     []Call // calls of the current sequence, for the counterexample
	block   chain.Block
	calls   int
	gasUsed uint64 // by the calls, on both deployments
	start   time.Time
	elapsed time.Duration
	stop    string
	cx      *Counterexample // the confirmed, shrunk disagreement
	// unconfirmed counts disagreements a replay did not reproduce.
	unconfirmed int
	// wallErr is the first call the harness cut for time: the campaign
	// fails with it rather than compare a cut call.
	wallErr error
	data    []byte // call data buffer, reused
	// memoised counts the calls the sides' memos answered.
	memoised int
}

func newCampaign(ref, sample Target, m abi.Method, cfg Config) *campaign {
	c := &campaign{cfg: cfg, method: m, gen: NewGenerator(cfg.Seed, cfg.Dictionary)}
	c.ref = newSide(ref, !cfg.Unguided, !cfg.NoMemo)
	c.sample = newSide(sample, !cfg.Unguided, !cfg.NoMemo)
	return c
}

func newSide(t Target, guided, memo bool) side {
	cov := newTracker()
	opts := chain.Options{}
	if guided {
		opts = cov.options()
	}
	return side{target: t, cov: cov, base: t.Chain.WithOptions(opts), memo: newCallMemo(memo)}
}

// run fuzzes until the call budget, the gas budget or a confirmed
// disagreement stops it. A disagreement is confirmed when its shrunk
// sequence, replayed from the fresh deployments, still disagrees; otherwise
// fuzzing goes on. Running past the wall-clock limit is an error, never a
// stop reason.
func (c *campaign) run(ctx context.Context) error {
	c.start = time.Now()
	defer func() {
		c.release()
		c.elapsed = time.Since(c.start)
	}()
	for c.calls < c.cfg.Calls {
		if c.gasUsed >= c.cfg.GasBudget {
			c.stop = StopGasBudget
			return nil
		}
		if c.calls%timeCheckEvery == 0 {
			if err := c.interrupted(ctx); err != nil {
				return err
			}
		}
		if c.calls%c.cfg.SeqLen == 0 {
			c.reset()
		}
		call := c.nextCall()
		step := c.execute(call)
		if c.wallErr != nil {
			return c.wallErr
		}
		c.calls++
		c.gasUsed += step.Ref.GasUsed + step.Sample.GasUsed
		c.seq = append(c.seq, call)
		if step.Diverges() {
			cx, err := c.shrink(ctx, append([]Call(nil), c.seq...))
			if err != nil {
				return err
			}
			if cx != nil {
				c.stop, c.cx = StopCounterexample, cx
				return nil
			}
			c.unconfirmed++
		}
		if c.ref.cov.fresh || c.sample.cov.fresh {
			c.corpus = append(c.corpus, call)
		}
	}
	c.stop = StopBudget
	return nil
}

// interrupted is the context's error, or a walltime.Error once the
// campaign has run past its wall-clock limit.
func (c *campaign) interrupted(ctx context.Context) error {
	return walltime.Check(ctx, c.start, c.cfg.Timeout, func(ran time.Duration) string {
		return fmt.Sprintf("fuzz: %s: %d of %d calls in %s", c.method.Sig, c.calls, c.cfg.Calls, ran)
	})
}

// release hands the last forks' EVM resources back.
func (c *campaign) release() {
	for _, s := range []*side{&c.ref, &c.sample} {
		if s.cur != nil {
			s.cur.Release()
			s.cur = nil
		}
	}
}

// reset starts a sequence: fresh forks of both deployments, a block.
func (c *campaign) reset() {
	for _, s := range []*side{&c.ref, &c.sample} {
		if s.cur != nil {
			s.cur.Release()
		}
		s.cur = s.base.Fork()
	}
	c.seq = c.seq[:0]
	c.block = blockFor(c.cfg.Block, c.gen)
	c.ref.memo.startIn(c.block.Number, c.block.Time)
	c.sample.memo.startIn(c.block.Number, c.block.Time)
}

// execute runs one call on both current forks and notes new coverage.
func (c *campaign) execute(call Call) Step {
	c.data = call.Args.AppendCallData(c.data[:0], c.method.ID)
	step := Step{Call: call}
	key := callDigest(&call.Value, c.data)
	step.Ref = c.apply(&c.ref, call, key)
	step.Sample = c.apply(&c.sample, call, key)
	for _, s := range []*side{&c.ref, &c.sample} {
		for _, w := range s.cov.cmps {
			c.gen.AddHint(w)
		}
	}
	return step
}

// apply runs one call on a side's current fork, unless the memo knows what
// it does there: then the tracker gets the comparisons it made (it reaches
// no new coverage: its first run set the bits).
func (c *campaign) apply(s *side, call Call, key digest) Outcome {
	s.cov.begin()
	if e, ok := s.memo.lookup(key); ok {
		c.memoised++
		s.cov.cmps = append(s.cov.cmps, e.cmps...)
		return e.outcome
	}
	res, err := s.cur.Apply(chain.Msg{From: c.cfg.Sender, To: &s.target.Address, Data: c.data, Gas: c.cfg.Gas,
		Value: c.valueOf(call), Block: call.Block})
	o := c.outcomeOf(res, err)
	s.memo.record(key, o, err == nil && res.StateKept, s.cov.cmps)
	return o
}

// valueOf is call.Value as the big.Int chain.Msg takes (nil for zero).
func (c *campaign) valueOf(call Call) *big.Int {
	if call.Value.IsZero() {
		return nil
	}
	return call.Value.ToBig()
}

// outcomeOf is what a call did; a call the harness cut for time is no
// outcome (it says nothing of the code): it is kept in wallErr instead.
func (c *campaign) outcomeOf(res *chain.Result, err error) Outcome {
	if walltime.Is(err) {
		if c.wallErr == nil {
			c.wallErr = err
		}
		return Outcome{Fault: true, Err: err.Error()}
	}
	if err != nil { // a harness fault: the call did not succeed
		return Outcome{Fault: true, Err: err.Error()}
	}
	o := Outcome{Success: res.Success, ReturnData: res.ReturnData, RevertReason: res.RevertReason, GasUsed: res.GasUsed}
	if res.Err != nil {
		o.Err = res.Err.Error()
	}
	return o
}

// nextCall picks the next input: fresh arguments now and then (always while
// the corpus is empty), the previous call again (state accumulates over a
// sequence), else a mutant or splice of a corpus entry.
func (c *campaign) nextCall() Call {
	call := Call{Block: c.block}
	r := c.gen.Intn(100)
	switch {
	case len(c.corpus) == 0 || r < 15 || c.cfg.Unguided:
		call.Args = c.gen.Tuple(c.method.Inputs)
		call.Value = c.wei()
	case r < 25 && len(c.seq) > 0:
		prev := c.seq[len(c.seq)-1]
		call.Args, call.Value = prev.Args, prev.Value
	default:
		parent := c.corpus[c.gen.Intn(len(c.corpus))]
		call.Args, call.Value = parent.Args, parent.Value
		if len(c.corpus) > 1 && c.gen.Intn(4) == 0 {
			other := c.corpus[c.gen.Intn(len(c.corpus))]
			call.Args = c.gen.Splice(call.Args, other.Args)
		}
		call.Args = c.gen.Mutate(call.Args, c.method.Inputs)
		if c.method.IsPayable() && c.gen.Intn(3) == 0 {
			call.Value = c.gen.Wei()
		}
	}
	return call
}

func (c *campaign) wei() uint256.Int {
	if !c.method.IsPayable() {
		return uint256.Int{}
	}
	return c.gen.Wei()
}

// blockFor picks a sequence's block: the one after the deployment half the
// time, else an hour, a day, a week, a month, a year or a random time up to
// a year later (12 s per block), so time-locked code opens up.
func blockFor(deployed chain.Block, g *Generator) chain.Block {
	delays := []uint64{0, 3600, 86400, 7 * 86400, 30 * 86400, 365 * 86400}
	var d uint64
	if r := g.Intn(12); r >= 6 {
		d = delays[r-6]
	} else if r == 5 {
		d = uint64(g.Intn(365 * 86400))
	}
	return afterDeployment(deployed, d)
}

// afterDeployment is the block delay seconds after the one after deployed.
func afterDeployment(deployed chain.Block, delay uint64) chain.Block {
	return chain.Block{Number: deployed.Number + 1 + delay/12, Time: deployed.Time + 12 + delay}
}

func (c *campaign) report() *Report {
	return &Report{
		Function:       c.method.Sig,
		Equivalent:     c.cx == nil,
		Calls:          c.calls,
		GasUsed:        c.gasUsed,
		Elapsed:        c.elapsed,
		CoverageRef:    c.ref.cov.stats(),
		CoverageSample: c.sample.cov.stats(),
		Corpus:         len(c.corpus),
		StopReason:     c.stop,
		Counterexample: c.cx,
		Unconfirmed:    c.unconfirmed,
		Memoised:       c.memoised,
	}
}
