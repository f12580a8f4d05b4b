package fuzz

import (
	"context"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/holiman/uint256"

	"github.com/solbehave/solbehave/internal/chain"
)

// shrinker minimises a diverging sequence: first the shortest sequence
// (dropping calls, moving amounts from earlier calls to later ones so the
// earlier ones can go), then the smallest arguments, msg.values and block
// delay, repeated until nothing changes or the replay or gas budget is
// spent. A candidate is kept when its replay still diverges anywhere; it is
// cut after its first diverging step. Shrinking is deterministic: no
// randomness, fixed order.
type shrinker struct {
	ctx  context.Context
	c    *campaign
	runs int
	max  int
	gas  uint64 // used by the replays so far
}

// shrink confirms and minimises a sequence that disagreed while fuzzing:
// nil when its replay from the fresh deployments does not disagree (before
// shrinking, or after: the sequence kept must still disagree when replayed
// once more), so only a reproducible disagreement becomes a counterexample.
func (c *campaign) shrink(ctx context.Context, found []Call) (*Counterexample, error) {
	if _, diverged := c.replay(found); !diverged || c.wallErr != nil {
		return nil, c.wallErr
	}
	s := &shrinker{ctx: ctx, c: c, max: c.cfg.ShrinkRuns}
	seq := found
	for changed := true; changed && !s.spent(); {
		if err := c.interrupted(ctx); err != nil {
			return nil, err
		}
		changed = false
		for _, pass := range []func([]Call) ([]Call, bool){s.dropCalls, s.redistribute, s.shrinkNumbers, s.shrinkBlock} {
			var ok bool
			if seq, ok = pass(seq); ok {
				changed = true
			}
		}
	}
	steps, diverged := c.replay(seq)
	if c.wallErr != nil {
		return nil, c.wallErr
	}
	if !diverged {
		return nil, nil
	}
	return &Counterexample{Steps: steps, Found: len(found), ShrinkRuns: s.runs}, nil
}

// try replays cand and returns it cut after its first divergence, or false
// when it no longer diverges (or the budget is spent).
func (s *shrinker) try(cand []Call) ([]Call, bool) {
	if s.spent() || s.ctx.Err() != nil || s.c.wallErr != nil {
		return nil, false
	}
	s.runs++
	steps, diverged := s.c.replay(cand)
	for _, st := range steps {
		s.gas += st.Ref.GasUsed + st.Sample.GasUsed
	}
	if !diverged || s.c.wallErr != nil {
		return nil, false
	}
	return cand[:len(steps)], true
}

// spent tells whether the replay or gas budget of shrinking is used up.
func (s *shrinker) spent() bool { return s.runs >= s.max || s.gas >= s.c.cfg.GasBudget }

// dropCalls tries the last call alone, then removing each earlier call.
func (s *shrinker) dropCalls(seq []Call) ([]Call, bool) {
	if len(seq) <= 1 {
		return seq, false
	}
	if out, ok := s.try(seq[len(seq)-1:]); ok {
		return out, true
	}
	changed := false
	for i := 0; i < len(seq)-1; {
		cand := append(append([]Call(nil), seq[:i]...), seq[i+1:]...)
		if out, ok := s.try(cand); ok {
			seq, changed = out, true
			continue
		}
		i++
	}
	return seq, changed
}

// word is one shrinkable number of a call: an argument or the msg.value.
type word struct {
	t   abi.Type
	get func(Call) uint256.Int
	set func(*Call, uint256.Int)
}

// words lists the shrinkable numbers of a call to the campaign's function.
func (s *shrinker) words() []word {
	inputs := s.c.method.Inputs
	out := make([]word, 0, len(inputs)+1)
	for j := range inputs {
		t := inputs[j].Type
		out = append(out, word{t: t,
			get: func(c Call) uint256.Int { return c.Args[j] },
			set: func(c *Call, w uint256.Int) {
				c.Args = c.Args.Clone()
				c.Args[j] = Canonical(t, w)
			}})
	}
	return append(out, word{t: abi.Type{T: abi.UintTy, Size: 256},
		get: func(c Call) uint256.Int { return c.Value },
		set: func(c *Call, w uint256.Int) { c.Value = w }})
}

// redistribute moves magnitude from an earlier call's number to a later
// call's (the same argument, or the value), as far as the type allows:
// where the calls' amounts only matter in sum (balances filled up over a
// sequence) the earlier call becomes zero, and the next dropCalls removes it.
// Signed and non-numeric types are left alone.
func (s *shrinker) redistribute(seq []Call) ([]Call, bool) {
	changed := false
	for _, w := range s.words() {
		if w.t.T != abi.UintTy {
			continue
		}
		max := lowBits(*new(uint256.Int).SetAllOne(), uint(w.t.Size))
		for i := 0; i < len(seq); i++ {
			for j := i + 1; j < len(seq); j++ {
				vi, vj := w.get(seq[i]), w.get(seq[j])
				var room, amount uint256.Int
				room.Sub(&max, &vj)
				if amount = vi; room.Lt(&vi) {
					amount = room
				}
				if amount.IsZero() {
					continue
				}
				cand := append([]Call(nil), seq...)
				w.set(&cand[i], *vi.Sub(&vi, &amount))
				w.set(&cand[j], *vj.Add(&vj, &amount))
				out, ok := s.try(cand)
				if !ok {
					continue
				}
				changed = true
				if len(out) != len(seq) {
					return out, true
				}
				seq = out
			}
		}
	}
	return seq, changed
}

// shrinkNumbers makes every argument and msg.value as small as it can be
// (by magnitude).
func (s *shrinker) shrinkNumbers(seq []Call) ([]Call, bool) {
	changed := false
	for i := 0; i < len(seq); i++ {
		for _, w := range s.words() {
			if i >= len(seq) { // an accepted candidate was cut short
				break
			}
			var ok bool
			if seq, ok = s.shrinkWord(seq, i, w); ok {
				changed = true
			}
		}
	}
	return seq, changed
}

// shrinkBlock tries running the sequence in the block right after the
// deployment.
func (s *shrinker) shrinkBlock(seq []Call) ([]Call, bool) {
	first := afterDeployment(s.c.cfg.Block, 0)
	if len(seq) == 0 || seq[0].Block == first {
		return seq, false
	}
	cand := make([]Call, len(seq))
	for i, c := range seq {
		c.Block = first
		cand[i] = c
	}
	if out, ok := s.try(cand); ok {
		return out, true
	}
	return seq, false
}

// shrinkWord binary-searches the smallest magnitude for one word of call i
// that still diverges: zero first, then halving the gap between the largest
// magnitude known to pass and the smallest known to diverge.
func (s *shrinker) shrinkWord(seq []Call, i int, num word) ([]Call, bool) {
	w := num.get(seq[i])
	if w.IsZero() {
		return seq, false
	}
	negative := num.t.T == abi.IntTy && w.Sign() < 0
	var hi, lo uint256.Int // hi diverges; lo (below hi) does not, once tested
	hi.Abs(&w)
	if !negative {
		hi = w
	}
	with := func(mag uint256.Int) []Call {
		if negative {
			mag.Neg(&mag)
		}
		cand := append([]Call(nil), seq...)
		num.set(&cand[i], mag)
		return cand
	}
	if out, ok := s.try(with(lo)); ok {
		return out, true
	}
	changed := false
	var gap, mid uint256.Int
	for gap.Sub(&hi, &lo); gap.GtUint64(1); gap.Sub(&hi, &lo) {
		mid.Add(&lo, gap.Rsh(&gap, 1))
		out, ok := s.try(with(mid))
		if !ok {
			if s.spent() {
				break
			}
			lo = mid
			continue
		}
		changed = true
		if len(out) != len(seq) { // cut short: the indices moved, start over
			return out, true
		}
		seq, hi = out, mid
	}
	return seq, changed
}

// replay runs calls on fresh forks of both deployments (no coverage) up to
// the first divergence, and reports whether there was one.
func (c *campaign) replay(calls []Call) ([]Step, bool) {
	ref, sample := c.ref.target.Chain.Fork(), c.sample.target.Chain.Fork()
	defer ref.Release()
	defer sample.Release()
	steps := make([]Step, 0, len(calls))
	for _, call := range calls {
		data := call.Args.CallData(c.method)
		step := Step{Call: call}
		step.Ref = c.applyOn(ref, c.ref.target, call, data)
		step.Sample = c.applyOn(sample, c.sample.target, call, data)
		steps = append(steps, step)
		if step.Diverges() {
			return steps, true
		}
	}
	return steps, false
}

func (c *campaign) applyOn(h *chain.Harness, t Target, call Call, data []byte) Outcome {
	res, err := h.Apply(chain.Msg{From: c.cfg.Sender, To: &t.Address, Data: data, Gas: c.cfg.Gas, Value: c.valueOf(call), Block: call.Block})
	return c.outcomeOf(res, err)
}
