package bytecode

import (
	"slices"

	"github.com/ethereum/go-ethereum/core/vm"
)

// Limits bound the depth-first path search from one function entry.
type Limits struct {
	MaxPaths int // complete paths (ending in a halt) explored per function
	MaxDepth int // blocks on one path
	MaxSteps int // block visits per function, complete or not
	// MaxStates bounds the reachability summary that completes the path
	// search: distinct (block, calling context, stack height) states.
	MaxStates int
}

// DefaultLimits fit the dispatcher-plus-body functions solc emits: a
// token's functions need a few dozen paths and a few hundred visits.
var DefaultLimits = Limits{MaxPaths: 512, MaxDepth: 512, MaxSteps: 50_000, MaxStates: 20_000}

func (l Limits) withDefaults() Limits {
	if l.MaxPaths <= 0 {
		l.MaxPaths = DefaultLimits.MaxPaths
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultLimits.MaxDepth
	}
	if l.MaxSteps <= 0 {
		l.MaxSteps = DefaultLimits.MaxSteps
	}
	if l.MaxStates <= 0 {
		l.MaxStates = DefaultLimits.MaxStates
	}
	return l
}

// pathEnd is how a path stops.
type pathEnd uint8

const (
	endSuccess pathEnd = iota // STOP, RETURN, SELFDESTRUCT, end of code
	endFailure                // REVERT, INVALID, undefined opcode, bad jump
	endCut                    // loop repeat, depth bound or unresolved jump
)

// succ is one way out of a block: a next block, or the end of the path.
type succ struct {
	pc       uint64
	end      pathEnd
	terminal bool
	branch   int8 // JUMPI side: +1 taken, -1 not taken, 0 not a JUMPI
}

// edgeKey identifies an edge taken in a calling context, so a loop edge is
// taken once per path while an internal function called from two sites
// (different return addresses on the stack) is walked at each call.
type edgeKey struct {
	from, to uint64
	ctx      uint64
}

// Cuts tells why a path search is incomplete. Loop edges met again are not
// counted: walking a loop body once per path is the intended bound.
type Cuts struct {
	Budget     bool // MaxPaths or MaxSteps ran out
	Depth      int  // paths stopped at MaxDepth
	Unresolved int  // paths stopped at a jump with no known destination
	// States is set when MaxStates stopped the reachability summary, so
	// even the function's flags and Blocks may be incomplete.
	States bool
}

// pathSummary is what the search found for one function.
type pathSummary struct {
	classes             classBits
	hasSStore, hasSLoad bool
	complete, critical  int
	criticalPaths       [][]uint64
	truncated           bool
	cuts                Cuts
	blocks              map[uint64]bool
	resolved            map[[2]uint64]bool // jumps the path stacks resolved
}

// explorer walks paths depth-first, carrying the simulated stack across
// blocks so return addresses pushed by a caller resolve the callee's JUMP.
type explorer struct {
	cfg     *CFG
	lim     Limits
	path    []uint64
	onPath  map[edgeKey]bool
	steps   int
	sstores int // blocks on the current path with SSTORE
	sloads  int
	marked  int // blocks on the current path with a K instruction
	res     pathSummary
}

func explore(c *CFG, entry uint64, s *absStack, lim Limits) pathSummary {
	e := &explorer{cfg: c, lim: lim.withDefaults(), onPath: map[edgeKey]bool{}}
	e.res.blocks = map[uint64]bool{}
	e.res.resolved = map[[2]uint64]bool{}
	if s.ids == nil {
		s.ids = new(uint64)
	}
	if _, ok := c.Blocks[entry]; ok {
		e.visit(entry, s)
	}
	return e.res
}

func (e *explorer) exhausted() bool {
	return e.steps >= e.lim.MaxSteps || e.res.complete >= e.lim.MaxPaths
}

func (e *explorer) visit(start uint64, s *absStack) {
	if e.exhausted() {
		e.res.truncated, e.res.cuts.Budget = true, true
		return
	}
	e.steps++
	b := e.cfg.Blocks[start]
	eff := simulate(b, s)
	e.enter(b, eff)
	defer e.leave(b, eff)

	nexts := e.successors(b, eff)
	ctx := e.context(s)
	for i, n := range nexts {
		switch {
		case n.terminal:
			e.finish(n.end)
		case len(e.path) >= e.lim.MaxDepth:
			e.res.truncated = true
			e.res.cuts.Depth++
			e.finish(endCut)
		default:
			key := edgeKey{from: b.Start, to: n.pc, ctx: ctx}
			if e.onPath[key] {
				e.finish(endCut)
				continue
			}
			e.onPath[key] = true
			e.visit(n.pc, successorStack(s, eff, nexts, i))
			delete(e.onPath, key)
		}
	}
}

// successorStack is the stack successor j of nexts starts from, refined by
// the branch it takes: a clone of s, except for the last successor, which
// takes s itself (nothing else reads it after).
func successorStack(s *absStack, eff blockEffect, nexts []succ, j int) *absStack {
	next := s
	if j < len(nexts)-1 {
		next = s.clone()
	}
	if nexts[j].branch != 0 {
		next.refine(eff.cond, nexts[j].branch > 0)
	}
	return next
}

func (e *explorer) enter(b *Block, eff blockEffect) {
	e.path = append(e.path, b.Start)
	e.res.blocks[b.Start] = true
	e.res.classes |= eff.classes
	e.sstores += boolInt(b.SStore)
	e.sloads += boolInt(b.SLoad)
	e.marked += boolInt(eff.classes != 0)
}

func (e *explorer) leave(b *Block, eff blockEffect) {
	e.path = e.path[:len(e.path)-1]
	e.sstores -= boolInt(b.SStore)
	e.sloads -= boolInt(b.SLoad)
	e.marked -= boolInt(eff.classes != 0)
}

// finish records the current path. Storage effects count unless the path
// rolls back; only paths ending in a halt count as complete.
func (e *explorer) finish(end pathEnd) {
	if end != endFailure {
		e.res.hasSStore = e.res.hasSStore || e.sstores > 0
		e.res.hasSLoad = e.res.hasSLoad || e.sloads > 0
	}
	if end == endCut {
		return
	}
	e.res.complete++
	if e.marked > 0 {
		e.res.critical++
		e.res.criticalPaths = append(e.res.criticalPaths, slices.Clone(e.path))
	}
}

// successors lists where control goes after b on this path.
func (e *explorer) successors(b *Block, eff blockEffect) []succ {
	last := b.Last()
	switch {
	case halts(last.Op):
		return []succ{terminal(endOf(last.Op))}
	case last.Op == vm.JUMP:
		return e.jumpTargets(b, eff.target)
	case last.Op == vm.JUMPI:
		var out []succ
		nonzero, known := eff.cond.truth()
		if nonzero || !known {
			for _, n := range e.jumpTargets(b, eff.target) {
				n.branch = 1
				out = append(out, n)
			}
		}
		if !nonzero || !known {
			n := e.fallThrough(b)
			n.branch = -1
			out = append(out, n)
		}
		return out
	}
	return []succ{e.fallThrough(b)}
}

func (e *explorer) fallThrough(b *Block) succ {
	if b.hasNext {
		return succ{pc: b.Last().Next()}
	}
	return terminal(endSuccess) // running off the code is STOP
}

func (e *explorer) jumpTargets(b *Block, target absValue) []succ {
	if t, ok := target.u64(); ok && e.cfg.isJumpDest(t) {
		if b.Unresolved {
			e.res.resolved[[2]uint64{b.Start, t}] = true
		}
		return []succ{{pc: t}}
	}
	if target.isConst() {
		return []succ{terminal(endFailure)}
	}
	if len(b.dynamic) == 0 {
		e.res.truncated = true
		e.res.cuts.Unresolved++
		return []succ{terminal(endCut)}
	}
	out := make([]succ, 0, len(b.dynamic))
	for _, t := range b.dynamic {
		out = append(out, succ{pc: t})
	}
	return out
}

// context hashes the JUMPDEST-valued constants on the stack: the pending
// return addresses that tell one call of an internal function from another.
func (e *explorer) context(s *absStack) uint64 {
	h := uint64(14695981039346656037)
	for _, v := range s.vals {
		if pc, ok := v.u64(); ok && e.cfg.isJumpDest(pc) {
			h = (h ^ pc) * 1099511628211
		}
	}
	return h
}

func terminal(end pathEnd) succ { return succ{end: end, terminal: true} }

func endOf(op vm.OpCode) pathEnd {
	if fails(op) {
		return endFailure
	}
	return endSuccess
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
