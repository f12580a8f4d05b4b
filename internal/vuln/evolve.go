package vuln

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"slices"
	"sort"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	"github.com/solbehave/solbehave/internal/chain"
	"github.com/solbehave/solbehave/internal/fuzz"
	"github.com/solbehave/solbehave/internal/walltime"
)

// advances are the gaps between transactions mutation picks from: a block,
// a minute, an hour, a day, a week, a month, a year.
var advances = []uint64{1, 15, 15, 15, 60, 3600, 86400, 604800, 2592000, 31536000}

// evolve runs the generations. Unchanged seeds keep their fitness and are
// not executed again (execution is deterministic).
func (e *engine) evolve(ctx context.Context, start time.Time) error {
	pop := e.initialPool()
	for gen := 0; gen < e.cfg.Generations; gen++ {
		for _, s := range pop {
			if s.executed {
				continue
			}
			if err := e.interrupted(ctx, start); err != nil {
				return err
			}
			e.observe(e.execute(s), gen)
		}
		e.report.Generations = gen + 1
		if gen+1 < e.cfg.Generations {
			pop = e.nextGeneration(pop)
		}
	}
	return nil
}

// initialPool is the first generation: with static guidance the
// prioritised sequences of initialSequences, instantiated (extension
// all-candidates: sequences drawn by weight, with repeats, instead;
// campaigns: some of them an attacker's campaign), else random sequences;
// in descending order of their accumulated score.
func (e *engine) initialPool() []*Seed {
	pop := make([]*Seed, e.cfg.Population)
	var seqs [][]*candidate
	if e.ordered && e.directed && !e.cfg.has("all-candidates") {
		seqs = e.initialSequences(e.cfg.Population)
	}
	for i := range pop {
		switch {
		case e.directed && e.chance(e.cfg.Campaigns):
			pop[i] = e.campaignSeed()
		case len(seqs) > 0:
			pop[i] = e.seedOf(seqs[i%len(seqs)])
		default:
			pop[i] = e.randomSeed()
		}
	}
	e.sortByScore(pop)
	return pop
}

// sortByScore puts the initial sequences in descending order of their
// accumulated score (SAEFUZZ §3: the storage score of their calls, SSTORE 2
// and SLOAD 1, state-changing calls above read-only ones; see rank), so the
// sequences most likely to change security-relevant state come first.
func (e *engine) sortByScore(pop []*Seed) {
	if !e.ordered || !e.directed {
		return
	}
	sort.SliceStable(pop, func(i, j int) bool { return accumulated(pop[i]) > accumulated(pop[j]) })
}

// accumulated is a sequence's accumulated score: the sum of its calls'
// ranks.
func accumulated(s *Seed) int {
	n := 0
	for _, tx := range s.Txs {
		n += tx.fn.rank
	}
	return n
}

// interrupted is the context's error, or a walltime.Error once the run is
// past Config.Budget: the generations bound the evolution, the clock only
// guards the machine, so running out of time is a failure, never a report.
func (e *engine) interrupted(ctx context.Context, start time.Time) error {
	return walltime.Check(ctx, start, e.cfg.Budget, func(ran time.Duration) string {
		return fmt.Sprintf("vuln: %d of %d generations in %s", e.report.Generations, e.cfg.Generations, ran)
	})
}

// nextGeneration ranks by fitness and pairs the top fraction α for
// crossover: their offspring take their places. Every other seed is mutated
// with probability p_m. Under extended (elitism) the best seed survives
// unchanged in place of the weakest, so fitness never regresses, and
// offspring identical to a parent are mutated, so no generation re-runs a
// copy. The random ablation draws a fresh population instead.
func (e *engine) nextGeneration(pop []*Seed) []*Seed {
	n := len(pop)
	if !e.directed {
		next := make([]*Seed, n)
		for i := range next {
			next[i] = e.randomSeed()
		}
		return next
	}
	sort.SliceStable(pop, func(i, j int) bool { return pop[i].fitness > pop[j].fitness })
	k := min(n, max(2, int(math.Ceil(e.cfg.Alpha*float64(n)))))
	next := make([]*Seed, 0, n)
	order := e.permutation(k)
	for i := 0; i < k; i += 2 {
		a, b := pop[order[i]], pop[order[(i+1)%k]]
		c1, c2 := e.crossover(a, b)
		next = append(next, e.fresh(c1, a, b), e.fresh(c2, a, b))
	}
	next = next[:k]
	for _, s := range pop[k:] {
		if e.chance(e.cfg.MutationRate) {
			s = e.mutate(s)
		}
		next = append(next, s)
	}
	if e.cfg.has("elitism") {
		next[n-1] = pop[0]
	}
	return next
}

// fresh returns child, mutated when it repeats a parent (extension elitism).
func (e *engine) fresh(child, a, b *Seed) *Seed {
	if !e.cfg.has("elitism") {
		return child
	}
	key := seedJSON(child, e.actors)
	if key == seedJSON(a, e.actors) || key == seedJSON(b, e.actors) {
		return e.mutate(child)
	}
	return child
}

func (e *engine) chance(p float64) bool { return float64(e.gen.Intn(1_000_000)) < p*1_000_000 }

func (e *engine) permutation(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	for i := n - 1; i > 0; i-- {
		j := e.gen.Intn(i + 1)
		p[i], p[j] = p[j], p[i]
	}
	return p
}

// maxCombined bounds the candidates initialSequences combines: the highest
// ranked ones, so at most C(16, ≤5) = 6,884 sequences are scored. Swapping
// a function outside them for an unused one inside never lowers a
// sequence's score, so the highest-scoring sequences are among these (up
// to which of equally ranked functions are kept: drawn at random).
const maxCombined = 16

// initialSequences is stage 1's output as SAEFUZZ §3 states it: "Candidate
// lists are deduplicated and combined into transaction sequences" (every
// combination of up to MaxTxs distinct candidates), "Functions whose paths
// contain SSTORE are placed before functions whose paths contain SLOAD"
// (each sequence in storage-dependency order, see seedOf), and "Sequences
// are sorted in descending order of the accumulated score", which
// "concentrates the available fuzzing budget on sequences with a higher
// estimated probability of changing security-relevant state": the n
// highest-scoring sequences (score: the sum of their functions' rank),
// best first. Ties, of functions and of sequences, are broken at random
// (the paper is silent); with fewer than n sequences the list is shorter
// and the pool instantiates them again, each time with new inputs.
func (e *engine) initialSequences(n int) [][]*candidate {
	cands := make([]*candidate, len(e.candidates))
	for i, k := range e.permutation(len(cands)) {
		cands[i] = e.candidates[k]
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].rank > cands[j].rank })
	ranked := cands
	cands = cands[:min(len(cands), maxCombined)]
	type sequence struct {
		fns   []*candidate
		score int
	}
	var all []sequence
	var walk func(from int, fns []*candidate, score int)
	walk = func(from int, fns []*candidate, score int) {
		for i := from; i < len(cands); i++ {
			next := append(slices.Clone(fns), cands[i])
			all = append(all, sequence{next, score + cands[i].rank})
			if len(next) < e.cfg.MaxTxs {
				walk(i+1, next, score+cands[i].rank)
			}
		}
	}
	walk(0, nil, 0)
	shuffled := make([]sequence, len(all))
	for i, k := range e.permutation(len(all)) {
		shuffled[i] = all[k]
	}
	sort.SliceStable(shuffled, func(i, j int) bool { return shuffled[i].score > shuffled[j].score })
	out := make([][]*candidate, 0, min(n, len(shuffled)))
	for _, sq := range shuffled[:min(n, len(shuffled))] {
		fns := make([]*candidate, len(sq.fns)) // equal ranks in random order (seedOf sorts by rank)
		for i, k := range e.permutation(len(fns)) {
			fns[i] = sq.fns[k]
		}
		out = append(out, fns)
	}
	return e.coverEvery(out, ranked, n)
}

// coverEvery makes every state-changing candidate a call of the first
// generation: those no chosen sequence calls, in rank order, are grouped
// MaxTxs at a time, and each group takes the place of the lowest-scoring
// sequence (or a free place while fewer than n were chosen), as far as n
// allows. SAEFUZZ §3 combines "candidate lists" into sequences and is
// silent on how many; without this a contract with more than maxCombined
// candidates (a SolidiFI file adds 20 to 40 functions) never calls most of
// them, since saefuzz's mutation changes senders and values, never
// functions. Read-only ones stay out: §3 deprioritises them.
func (e *engine) coverEvery(seqs [][]*candidate, ranked []*candidate, n int) [][]*candidate {
	called := map[*candidate]bool{}
	for _, fns := range seqs {
		for _, c := range fns {
			called[c] = true
		}
	}
	var left []*candidate
	for _, c := range ranked {
		if !called[c] && !c.readOnly {
			left = append(left, c)
		}
	}
	var groups [][]*candidate
	for len(left) > 0 {
		k := min(len(left), e.cfg.MaxTxs)
		groups = append(groups, left[:k])
		left = left[k:]
	}
	kept := len(seqs) // the chosen sequences still in place; the best one stays
	for _, g := range groups {
		if len(seqs) < n {
			seqs = append(seqs, g)
			continue
		}
		if kept <= 1 {
			break
		}
		kept--
		seqs[kept] = g
	}
	return seqs
}

// randomSeed instantiates a sequence of one to MaxTxs functions drawn by
// weight (uniformly when not directed), one main sender with the others
// mixed in.
func (e *engine) randomSeed() *Seed {
	s := &Seed{}
	n := 1 + e.gen.Intn(e.cfg.MaxTxs)
	main := e.gen.Intn(len(e.actors) + 1) // the attacker counts twice: reentrancy needs it throughout
	if main == len(e.actors) {
		main = e.attackerIx
	}
	for range n {
		sender := main
		if e.gen.Intn(4) == 0 {
			sender = e.gen.Intn(len(e.actors))
		}
		s.Txs = append(s.Txs, Tx{fn: e.pickCandidate(), Sender: sender, Value: new(big.Int), Advance: 15})
	}
	return e.instantiate(s)
}

// seedOf instantiates a sequence of the functions fns, all sent by the
// attacker: SAEFUZZ §3's prioritised sequences are the calls "an external
// adversary" can invoke, and transaction-level mutation then changes the
// sender.
func (e *engine) seedOf(fns []*candidate) *Seed {
	s := &Seed{}
	for _, fn := range fns {
		s.Txs = append(s.Txs, Tx{fn: fn, Sender: e.attackerIx, Value: new(big.Int), Advance: 15})
	}
	return e.instantiate(s)
}

// instantiate sorts a sequence's calls by storage-dependency rank when
// stage 1 ranked them, then gives them arguments and values in sequence
// order (see fillArgs).
func (e *engine) instantiate(s *Seed) *Seed {
	e.sortByRank(s)
	for i := range s.Txs {
		e.fillArgs(&s.Txs[i], s.Txs[:i])
		if s.Txs[i].fn.payable {
			s.Txs[i].Value = e.wei()
		}
		if s.Txs[i].Sender == e.attackerIx && e.chance(e.cfg.CrossReentry) {
			e.drawReentry(&s.Txs[i], s.Txs[:i])
		}
	}
	return s
}

// campaignSeed is an attacker's campaign: every state-changing candidate,
// in storage-dependency order (payable ones first among equals, with
// Ether; the others twice, in random order), all sent through the
// attacker contract; so the attacker has registered, deposited and claimed
// whatever the payout checks before it asks for it. Past 2·MaxTxs
// transactions, a random subset keeps that order.
func (e *engine) campaignSeed() *Seed {
	var payable, other []*candidate
	for _, c := range e.candidates {
		switch {
		case c.readOnly:
		case c.payable:
			payable = append(payable, c)
		default:
			other = append(other, c)
		}
	}
	if len(payable)+len(other) == 0 {
		return e.randomSeed()
	}
	// The non-payable writers come twice, in one random order: whichever of
	// two (claim a bonus, cash out) must come first, one copy of it does.
	var fns []*candidate
	fns = append(fns, payable...)
	order := e.permutation(len(other))
	for range 2 {
		for _, k := range order {
			fns = append(fns, other[k])
		}
	}
	for len(fns) > 2*e.cfg.MaxTxs {
		i := e.gen.Intn(len(fns))
		fns = append(fns[:i], fns[i+1:]...)
	}
	s := &Seed{}
	for _, c := range fns {
		s.Txs = append(s.Txs, Tx{fn: c, Sender: e.attackerIx, Value: new(big.Int), Advance: 15})
	}
	e.sortByRank(s)
	for i := range s.Txs {
		tx := &s.Txs[i]
		e.fillArgs(tx, s.Txs[:i])
		e.selfAddresses(tx)
		e.reuseAmounts(tx, s.Txs[:i])
		if tx.fn.payable {
			tx.Value = e.wei()
		}
		if e.chance(e.cfg.CrossReentry) {
			e.drawReentry(tx, s.Txs[:i])
		}
	}
	return s
}

// selfAddresses names the attacker in half the address arguments of a
// campaign's transaction (a payout to a holder or beneficiary it names);
// reuseAmounts then gives half its amounts one the campaign used before.
func (e *engine) selfAddresses(tx *Tx) {
	if tx.words == nil {
		return
	}
	for i, in := range tx.fn.method.Inputs {
		if in.Type.T == abi.AddressTy && e.gen.Intn(2) == 0 {
			tx.words[i].SetBytes20(AttackerAddress.Bytes())
		}
	}
}

// drawReentry gives an attacker transaction a call to make when the target
// calls the attacker back: a state-changing function drawn by weight
// (cross-function reentrancy re-enters a function other than the paying
// one), or none (the transaction's own call again) a third of the time.
func (e *engine) drawReentry(tx *Tx, prior []Tx) {
	if e.gen.Intn(3) == 0 {
		tx.Reenter = nil
		return
	}
	for range 4 {
		c := e.pickCandidate()
		if c.readOnly || c.method == nil || c == tx.fn { // the own call is the nil case
			continue
		}
		r := Tx{fn: c, Sender: tx.Sender, Value: new(big.Int)}
		before := append(append([]Tx(nil), prior...), *tx)
		e.fillArgs(&r, before)
		e.reuseAmounts(&r, before)
		tx.Reenter = &r
		return
	}
}

// reuseAmounts gives half the unsigned integer arguments of a re-entry an
// amount the sequence used before: re-entered during a payout, moving
// what is being paid is the attack.
func (e *engine) reuseAmounts(tx *Tx, prior []Tx) {
	if tx.words == nil {
		return
	}
	amounts := e.amounts(prior)
	for i, in := range tx.fn.method.Inputs {
		if in.Type.T == abi.UintTy && len(amounts) > 0 && e.gen.Intn(2) == 0 {
			tx.words[i] = fuzz.Canonical(in.Type, amounts[e.gen.Intn(len(amounts))])
		}
	}
}

// gapHint is a time or block gap that would satisfy a guard transaction tx
// compared the block's time or number against (see timeHints).
type gapHint struct {
	tx              int
	seconds, blocks uint64
}

// Gap caps: guards further away than this are not waited for.
const (
	maxHintSeconds = 10 * 365 * 86400
	maxHintBlocks  = 10_000_000
)

// timeHints reads the guards of a run: every comparison of a value derived
// from TIMESTAMP (NUMBER) with one that is not, where the block-state side
// is the smaller, gives the gap that would make it pass: the difference
// plus one, in seconds (blocks). A sequence that waits that long before
// the transaction reaches the other side of the guard (a time lock opens,
// a deadline passes).
func timeHints(run *seedRun) []gapHint {
	var out []gapHint
	seen := map[gapHint]bool{}
	for ti, tx := range run.txs {
		for _, ev := range tx.trace.events {
			if ev.kind != evCmp || ev.bothEnv {
				continue
			}
			env, other := ev.b, ev.a
			if ev.envFirst {
				env, other = ev.a, ev.b
			}
			if !env.Lt(&other) {
				continue
			}
			var d uint256.Int
			d.Sub(&other, &env)
			if !d.IsUint64() {
				continue
			}
			h := gapHint{tx: ti}
			switch gap := d.Uint64() + 1; {
			case ev.taint == srcTimestamp && gap <= maxHintSeconds:
				h.seconds = gap
			case ev.taint == srcNumber && gap <= maxHintBlocks:
				h.blocks = gap
			default:
				continue
			}
			if !seen[h] && len(out) < 16 {
				seen[h] = true
				out = append(out, h)
			}
		}
	}
	return out
}

// exactHint is the value an equality of transaction tx compared an input
// (msg.value, or an argument whose value was have) against (see exactHints).
type exactHint struct {
	tx         int
	value      bool // the input side is msg.value (else call data)
	have, want uint256.Int
}

// exactHints (extension exact-values) reads the equalities of a run one side
// of which is the transaction's input and the other not: block-state class,
// lotteries and guessing games whose payout needs an exact stake
// (`msg.value == TICKET_AMOUNT`) or an exact guess (`n == answer`, the
// answer derived from block state and kept in storage). The other side is
// the value the contract derived, read as the code computed it, so a
// mutation can send it (ContractFuzzer's and RedQueen's input-to-state
// comparison). The dispatcher's comparisons of the selector are left out.
func (e *engine) exactHints(run *seedRun) []exactHint {
	var out []exactHint
	seen := map[exactHint]bool{}
	for ti, tx := range run.txs {
		for _, ev := range tx.trace.events {
			if ev.kind != evEq || ev.b.IsUint64() && ev.b.Uint64() <= 0xffffffff && e.selectors[uint32(ev.b.Uint64())] {
				continue
			}
			h := exactHint{tx: ti, value: ev.taint&srcCallValue != 0, have: ev.a, want: ev.b}
			if !seen[h] && len(out) < 16 {
				seen[h] = true
				out = append(out, h)
			}
		}
	}
	return out
}

// applyExact sets an input of transaction i to the value one of its
// equalities asked for: msg.value, or the integer argument that held the
// compared value (else one drawn at random). It reports whether it changed
// the transaction.
func (e *engine) applyExact(tx *Tx, i int, hints []exactHint) bool {
	mine := hintsFor(hints, i)
	h := mine[e.gen.Intn(len(mine))]
	if h.value {
		if !tx.fn.payable || h.want.BitLen() > 128 {
			return false
		}
		tx.Value = h.want.ToBig()
		return true
	}
	if tx.words == nil || tx.fn.method == nil {
		return false
	}
	var ints, same []int
	for k, in := range tx.fn.method.Inputs {
		switch in.Type.T {
		case abi.UintTy, abi.IntTy, abi.FixedBytesTy, abi.AddressTy:
			ints = append(ints, k)
			if tx.words[k] == h.have {
				same = append(same, k)
			}
		}
	}
	if len(same) > 0 {
		ints = same
	}
	if len(ints) == 0 {
		return false
	}
	k := ints[e.gen.Intn(len(ints))]
	tx.words[k] = fuzz.Canonical(tx.fn.method.Inputs[k].Type, h.want)
	return true
}

func (h gapHint) txIndex() int   { return h.tx }
func (h exactHint) txIndex() int { return h.tx }

// hintsFor are the hints of transaction i.
func hintsFor[H interface{ txIndex() int }](hints []H, i int) []H {
	var mine []H
	for _, h := range hints {
		if h.txIndex() == i {
			mine = append(mine, h)
		}
	}
	return mine
}

// mutateGap changes the wait before transaction i: to a gap a guard of the
// last run asked for (with probability GapHints, when there is one), else
// to one of the usual gaps, a block apart, or as many blocks as seconds
// pass at 15 s a block.
func (e *engine) mutateGap(tx *Tx, i int, hints []gapHint) {
	mine := hintsFor(hints, i)
	if len(mine) > 0 && e.gen.Intn(4) > 0 {
		h := mine[e.gen.Intn(len(mine))]
		if h.seconds > 0 {
			tx.Advance = max(tx.Advance, 1) + h.seconds
		} else {
			tx.Blocks = max(tx.Blocks, 1) + h.blocks
		}
		return
	}
	tx.Advance = advances[e.gen.Intn(len(advances))]
	tx.Blocks = 1
	if e.gen.Intn(2) == 0 {
		tx.Blocks = max(1, tx.Advance/15)
	}
}

func (e *engine) pickCandidate() *candidate {
	if !e.directed {
		return e.candidates[e.gen.Intn(len(e.candidates))]
	}
	total := 0
	for _, c := range e.candidates {
		total += c.weight
	}
	r := e.gen.Intn(total)
	for _, c := range e.candidates {
		if r -= c.weight; r < 0 {
			return c
		}
	}
	return e.candidates[len(e.candidates)-1]
}

// sortByRank puts a new sequence in storage-dependency order, payable calls
// first among equal ranks (Ether comes in before code that pays it out
// runs; a preference of new sequences only, not a constraint).
func (e *engine) sortByRank(s *Seed) {
	if e.ordered && e.directed {
		sort.SliceStable(s.Txs, func(i, j int) bool {
			a, b := s.Txs[i].fn, s.Txs[j].fn
			if a.rank != b.rank {
				return a.rank > b.rank
			}
			return a.payable && !b.payable
		})
	}
}

// reorder restores the storage-dependency order of a mutant, keeping the
// order of equal ranks.
func (e *engine) reorder(s *Seed) {
	if !e.inOrder(s) {
		sort.SliceStable(s.Txs, func(i, j int) bool { return s.Txs[i].fn.rank > s.Txs[j].fn.rank })
	}
}

// inOrder reports whether a sequence keeps the storage-dependency order.
func (e *engine) inOrder(s *Seed) bool {
	if !e.ordered {
		return true
	}
	for i := 1; i < len(s.Txs); i++ {
		if s.Txs[i].fn.rank > s.Txs[i-1].fn.rank {
			return false
		}
	}
	return true
}

// wei is a msg.value for a payable call: the generator's, drawn again once
// when it is zero, so three payable calls in four carry Ether.
func (e *engine) wei() *big.Int {
	// Extension stake-constants (block-state class and guessing games: a
	// lottery or roulette accepting only an exact stake, `msg.value == 10
	// ether`): a quarter of the values are one of the round amounts the code
	// holds as constants.
	if e.cfg.has("stake-constants") && len(e.stakes) > 0 && e.chance(0.25) {
		return e.stakes[e.gen.Intn(len(e.stakes))].ToBig()
	}
	w := e.gen.Wei()
	if w.IsZero() {
		w = e.gen.Wei()
	}
	return w.ToBig()
}

// Argument biases, in percent: how often an address argument names a run
// account, and how often an integer argument repeats an amount an earlier
// transaction of the sequence sent or passed (a withdrawal of what was
// deposited).
const (
	accountBias = 60
	reuseBias   = 25
)

// fillArgs draws a fresh argument tuple (or fallback call data) for a
// transaction preceded by prior.
func (e *engine) fillArgs(tx *Tx, prior []Tx) {
	m := tx.fn.method
	switch {
	case m == nil:
		tx.raw = e.fallbackData()
	case tx.fn.primitive():
		tx.words = e.gen.Tuple(m.Inputs)
		for i := range tx.words {
			e.bias(m.Inputs[i].Type, &tx.words[i], tx.Sender, prior)
		}
	default:
		tx.values = make([]any, len(m.Inputs))
		for i, in := range m.Inputs {
			tx.values[i] = e.value(in.Type, tx.Sender)
		}
	}
}

// value draws a Go value of any supported type (top-level addresses biased
// towards the run's accounts).
func (e *engine) value(t abi.Type, sender int) any {
	v, err := e.gen.Value(t)
	if err != nil { // candidates are filtered to supported types
		panic(err)
	}
	if t.T == abi.AddressTy && e.gen.Intn(100) < accountBias {
		return e.account(sender)
	}
	return v
}

// bias rewrites a generated word: an address becomes a run account (half
// of those times the sender itself), an unsigned integer an amount used
// earlier in the sequence.
func (e *engine) bias(t abi.Type, w *uint256.Int, sender int, prior []Tx) {
	switch {
	case t.T == abi.AddressTy && e.gen.Intn(100) < accountBias:
		a := e.account(sender)
		w.SetBytes20(a.Bytes())
	case t.T == abi.UintTy && e.gen.Intn(100) < reuseBias:
		if amounts := e.amounts(prior); len(amounts) > 0 {
			*w = fuzz.Canonical(t, amounts[e.gen.Intn(len(amounts))])
		}
	}
}

// amounts are the non-zero values and unsigned integer arguments of txs.
func (e *engine) amounts(txs []Tx) []uint256.Int {
	var out []uint256.Int
	for _, tx := range txs {
		if tx.Value != nil && tx.Value.Sign() > 0 {
			out = append(out, *uint256.MustFromBig(tx.Value))
		}
		if tx.words == nil {
			continue
		}
		for i, in := range tx.fn.method.Inputs {
			if in.Type.T == abi.UintTy && !tx.words[i].IsZero() {
				out = append(out, tx.words[i])
			}
		}
	}
	return out
}

// account is a run account as the target sees it: the sender itself half
// the time, else any actor (the attacker contract, not its controller), the
// target, or the stub contract (StubAddress: code that accepts any call,
// for arguments naming a helper contract the target calls, a log say).
func (e *engine) account(sender int) common.Address {
	if e.gen.Intn(2) == 0 {
		return e.identity(sender)
	}
	switch i := e.gen.Intn(len(e.actors) + 2); i {
	case len(e.actors):
		return e.target.Address
	case len(e.actors) + 1:
		return StubAddress
	default:
		return e.identity(i)
	}
}

// identity is msg.sender of an actor's transactions.
func (e *engine) identity(actor int) common.Address {
	if a := e.actors[actor]; a.via != nil {
		return *a.via
	}
	return e.actors[actor].from
}

// fallbackData is empty half the time (a plain transfer), else a few random
// bytes (a call naming no function, which a forwarding fallback passes on).
func (e *engine) fallbackData() []byte {
	if e.gen.Intn(2) == 0 {
		return nil
	}
	b := make([]byte, 4+e.gen.Intn(2)*32)
	for i := range b {
		b[i] = byte(e.gen.Intn(256))
	}
	return b
}

// crossover recombines two parents: with even odds, transaction
// subsequences (a prefix of one before a suffix of the other) or argument
// tuples of the transactions that call the same function. Offspring that
// break the storage order, are empty or too long, or fail to encode are
// rejected: the parent is copied instead.
func (e *engine) crossover(a, b *Seed) (*Seed, *Seed) {
	for range 4 {
		var c1, c2 *Seed
		if e.gen.Intn(2) == 0 {
			c1, c2 = e.swapTuples(a, b)
		}
		if c1 == nil {
			c1, c2 = e.splice(a, b)
		}
		if e.acceptable(c1) && e.acceptable(c2) {
			return c1, c2
		}
	}
	return a.clone(), b.clone()
}

func (e *engine) splice(a, b *Seed) (*Seed, *Seed) {
	i, j := e.gen.Intn(len(a.Txs)+1), e.gen.Intn(len(b.Txs)+1)
	c1, c2 := &Seed{}, &Seed{}
	for _, tx := range a.Txs[:i] {
		c1.Txs = append(c1.Txs, tx.clone())
	}
	for _, tx := range b.Txs[j:] {
		c1.Txs = append(c1.Txs, tx.clone())
	}
	for _, tx := range b.Txs[:j] {
		c2.Txs = append(c2.Txs, tx.clone())
	}
	for _, tx := range a.Txs[i:] {
		c2.Txs = append(c2.Txs, tx.clone())
	}
	return c1, c2
}

// swapTuples exchanges the arguments of the first pair of transactions (one
// in each parent) calling the same function; nil when there is none.
func (e *engine) swapTuples(a, b *Seed) (*Seed, *Seed) {
	for i, ta := range a.Txs {
		for j, tb := range b.Txs {
			if ta.fn != tb.fn || ta.fn.method == nil || len(ta.fn.method.Inputs) == 0 {
				continue
			}
			c1, c2 := a.clone(), b.clone()
			if ta.words != nil {
				c1.Txs[i].words = e.gen.Splice(ta.words, tb.words)
				c2.Txs[j].words = e.gen.Splice(tb.words, ta.words)
			} else {
				c1.Txs[i].values, c2.Txs[j].values = append([]any(nil), tb.values...), append([]any(nil), ta.values...)
			}
			return c1, c2
		}
	}
	return nil, nil
}

func (e *engine) acceptable(s *Seed) bool {
	if len(s.Txs) == 0 || len(s.Txs) > 2*e.cfg.MaxTxs || !e.inOrder(s) {
		return false
	}
	for _, tx := range s.Txs {
		if _, err := tx.CallData(); err != nil {
			return false
		}
	}
	return true
}

// mutate returns a mutant carrying one to three stacked mutations (the
// paper leaves the number open), each on one transaction: at parameter
// level (its arguments' values replaced or bits flipped) or at transaction
// level (another sender or value; under extended, tx-edits, also another
// time gap, the transaction repeated, or replaced by a fresh call), with
// even odds between the levels. Under extended (repair) half the mutations
// aim at a transaction that reverted. Transactions keep the
// storage-dependency order.
func (e *engine) mutate(s *Seed) *Seed {
	c := s.clone()
	failed := s.failed
	if !e.cfg.has("repair") {
		failed = nil
	}
	for range 1 + e.gen.Intn(3) {
		i := e.gen.Intn(len(c.Txs))
		if len(failed) > 0 && len(c.Txs) == len(s.Txs) && e.gen.Intn(2) == 0 {
			i = failed[e.gen.Intn(len(failed))] // repair: a transaction that reverted
		}
		if e.cfg.has("exact-values") && len(c.Txs) == len(s.Txs) && len(hintsFor(s.exact, i)) > 0 && e.gen.Intn(2) == 0 &&
			e.applyExact(&c.Txs[i], i, s.exact) {
			continue
		}
		if e.gen.Intn(2) == 0 && e.mutateArgs(&c.Txs[i], c.Txs[:i]) {
			continue
		}
		var hints []gapHint
		if len(c.Txs) == len(s.Txs) {
			hints = s.hints
		}
		if len(hintsFor(hints, i)) > 0 && e.chance(e.cfg.GapHints) {
			e.mutateGap(&c.Txs[i], i, hints)
			continue
		}
		c.Txs = e.mutateTx(c.Txs, i, hints)
	}
	e.reorder(c)
	return c
}

func (e *engine) mutateTx(txs []Tx, i int, hints []gapHint) []Tx {
	tx := &txs[i]
	if tx.Sender == e.attackerIx && e.chance(e.cfg.CrossReentry) {
		e.drawReentry(tx, txs[:i])
		return txs
	}
	kinds := 2 // SAEFUZZ: the sender or the value
	if e.cfg.has("tx-edits") {
		kinds = 5 // tx-edits: the time gap, a repeat, a fresh call
	}
	switch e.gen.Intn(kinds) {
	case 0:
		tx.Sender = e.gen.Intn(len(e.actors))
		if e.cfg.has("campaigns") && e.gen.Intn(4) == 0 { // campaigns: the whole sequence becomes the attacker's campaign
			for k := range txs {
				txs[k].Sender = e.attackerIx
			}
		}
	case 1:
		if tx.fn.payable {
			tx.Value = e.wei()
		} else {
			tx.Sender = e.gen.Intn(len(e.actors))
		}
	case 2:
		e.mutateGap(tx, i, hints)
	case 3:
		if len(txs) < 2*e.cfg.MaxTxs {
			txs = append(txs[:i+1], append([]Tx{tx.clone()}, txs[i+1:]...)...)
		}
	case 4:
		fresh := Tx{fn: e.pickCandidate(), Sender: tx.Sender, Value: new(big.Int), Advance: tx.Advance}
		e.fillArgs(&fresh, txs[:i])
		if fresh.fn.payable {
			fresh.Value = e.wei()
		}
		txs[i] = fresh
	}
	return txs
}

func (e *engine) mutateArgs(tx *Tx, prior []Tx) bool {
	m := tx.fn.method
	switch {
	case m == nil:
		tx.raw = e.fallbackData()
	case len(m.Inputs) == 0:
		return false
	case tx.words != nil:
		tx.words = e.gen.Mutate(tx.words, m.Inputs)
		if k := e.gen.Intn(len(tx.words)); e.gen.Intn(4) == 0 {
			e.bias(m.Inputs[k].Type, &tx.words[k], tx.Sender, prior)
		}
	default:
		k := e.gen.Intn(len(m.Inputs))
		tx.values[k] = e.value(m.Inputs[k].Type, tx.Sender)
	}
	return true
}

// txRun is one executed transaction of a seed.
type txRun struct {
	trace   *txTrace
	success bool
	sender  int
}

// seedRun is one executed seed.
type seedRun struct {
	seed *Seed
	txs  []txRun
	cov  *coverage
}

// execute runs a seed on a fresh fork of the prepared deployment, counting
// its transactions as test cases and merging its coverage.
func (e *engine) execute(s *Seed) *seedRun {
	run := e.replay(s)
	s.executed = true
	e.report.Seeds++
	s.failed = s.failed[:0]
	for i, tx := range run.txs {
		e.report.TestCases++
		if tx.success {
			e.report.ValidTestCases++
		} else {
			s.failed = append(s.failed, i)
		}
	}
	s.hints = timeHints(run)
	if e.cfg.has("exact-values") {
		s.exact = e.exactHints(run)
	}
	e.total.merge(run.cov)
	w := e.cfg.BranchWeight
	s.fitness = w*ratio(run.cov.branches(), e.branches) + (1-w)*ratio(run.cov.instructions(), e.instructions)
	return run
}

// replay executes a seed without counting it (reproduction uses it too).
func (e *engine) replay(s *Seed) *seedRun {
	h := e.traced.Fork()
	e.tr.beginSeed()
	e.tr.state = func(slot uint256.Int) uint256.Int {
		return *new(uint256.Int).SetBytes32(h.StorageAt(e.target.Address, slot.Bytes32()).Bytes())
	}
	defer func() { e.tr.on, e.tr.state = false, nil }()
	run := &seedRun{seed: s}
	b := e.target.Block
	for _, tx := range s.Txs {
		b = chain.Block{Number: b.Number + max(tx.Blocks, 1), Time: b.Time + max(tx.Advance, 1)}
		trace := e.tr.beginTx()
		ok := e.send(h, tx, b)
		run.txs = append(run.txs, txRun{trace: trace, success: ok, sender: tx.Sender})
	}
	e.tr.tx = nil
	run.cov = e.tr.cov.clone()
	return run
}

// replayFlipped reruns a seed with one JUMPI's outcome inverted.
func (e *engine) replayFlipped(s *Seed, at flipPoint) *seedRun {
	e.tr.flip = &at
	defer func() { e.tr.flip = nil }()
	return e.replay(s)
}

// send applies one transaction; an attacker transaction goes through the
// attacker contract.
func (e *engine) send(h *chain.Harness, tx Tx, b chain.Block) bool {
	data, err := tx.CallData()
	if err != nil {
		return false
	}
	a := e.actors[tx.Sender]
	to := e.target.Address
	if a.via != nil {
		to = *a.via
		var reenter []byte
		if tx.Reenter != nil {
			if reenter, err = tx.Reenter.CallData(); err != nil {
				return false
			}
		}
		data = attackerEnvelope(data, reenter)
	}
	res, err := h.Apply(chain.Msg{From: a.from, To: &to, Data: data, Value: tx.Value, Gas: e.cfg.TxGas, Block: b})
	return err == nil && res.Success
}

// senderIsPrivileged reports whether a transaction came from the deployer.
func (e *engine) senderIsPrivileged(ix int) bool { return e.actors[ix].from == e.target.Deployer }
