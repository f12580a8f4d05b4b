package bytecode

import (
	"bytes"
	"fmt"
	"slices"
	"sort"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/core/vm"
)

// Function is one externally callable ABI function and what the path search
// from its dispatcher entry found.
type Function struct {
	Selector        [4]byte
	Name, Signature string // e.g. "transfer", "transfer(address,uint256)"
	// Entry is the block the dispatcher routes Selector to: the JUMPDEST a
	// matching JUMPI jumps to, or the fallthrough of an ISZERO-negated
	// comparison (Vyper style).
	Entry uint64
	// Recovered is false when the ABI names the function but the dispatcher
	// does not route its selector; such a call reaches the fallback, so the
	// function is not callable as declared and the fields below are zero.
	Recovered         bool
	ReadOnly, Payable bool // view/pure and payable, per the ABI
	// HasSSTORE and HasSLOAD tell whether the function writes or reads
	// storage on a path that does not revert: on an explored path, or in a
	// block of the reachability summary from which a halt that does not
	// revert is reachable.
	HasSSTORE, HasSLOAD bool
	// Critical holds the K classes (Class* constants) met on any explored
	// path or reachable block.
	Critical map[string]bool
	// Paths counts complete paths (ending in a halt) explored; CriticalPaths
	// those that pass through a block with a K instruction.
	Paths, CriticalPaths int
	// CriticalPathBlocks lists the block starts of each critical path.
	CriticalPathBlocks [][]uint64
	// Blocks are the starts of all blocks the function reaches, ascending:
	// its own code plus the shared helpers, returns and revert blocks.
	Blocks []uint64
	// Truncated is set when a Limits bound or an unresolved jump stopped the
	// path search (the path counts are then lower bounds) or MaxStates the
	// reachability summary; Cuts says which.
	Truncated bool
	Cuts      Cuts
	// StorageScore is 2 with SSTORE, else 1 with SLOAD, else 0.
	StorageScore int
}

// Route is one dispatcher route: calldata starting with Selector jumps to
// Entry.
type Route struct {
	Selector [4]byte
	Entry    uint64
	stack    *absStack // simulated stack at the entry
}

// Dispatch recovers the dispatcher's selector table, sorted by selector.
// It walks the blocks reachable from pc 0 with the simulated stack, where
// the selector is CALLDATALOAD(0) shifted right 224 bits (SHR, or DIV by
// 2^224 before 0.5) and optionally masked with 0xffffffff. A JUMPI whose
// condition is selector == PUSH4 constant records the route and continues
// on the mismatch side only; every other branch is followed, which covers
// the linear chains (`DUP1 PUSH4 s EQ PUSH2 d JUMPI`, `PUSH4 s DUP2 EQ ...`),
// 0.8.x's binary search on GT/LT splits, and ISZERO-negated comparisons.
// Comparisons inside function bodies are never reached, because the walk
// does not enter a matched route.
func Dispatch(c *CFG) []Route {
	if len(c.Starts) == 0 {
		return nil
	}
	// Code outside the dispatcher (a fallback, say) may jump into a function
	// body with the selector still on the stack; walking again with the
	// entries found as barriers drops comparisons met only inside bodies.
	routes := dispatchWalk(c, nil)
	for range 3 {
		barriers := map[uint64]bool{}
		for _, r := range routes {
			barriers[r.Entry] = true
		}
		again := dispatchWalk(c, barriers)
		stable := len(again) == len(routes)
		routes = again
		if stable {
			break
		}
	}
	out := make([]Route, 0, len(routes))
	for _, r := range routes {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return bytes.Compare(out[i].Selector[:], out[j].Selector[:]) < 0 })
	return out
}

// dispatchWalk walks from pc 0 without entering the barrier blocks and
// returns the routes it meets.
func dispatchWalk(c *CFG, barriers map[uint64]bool) map[[4]byte]Route {
	routes := map[[4]byte]Route{}
	type item struct {
		pc uint64
		s  *absStack
	}
	work := []item{{pc: c.Starts[0], s: &absStack{}}}
	seen := map[uint64]bool{}
	record := func(sel absValue, entry uint64, s *absStack) {
		key := selectorKey(sel)
		if _, dup := routes[key]; !dup {
			routes[key] = Route{Selector: key, Entry: entry, stack: s.clone()}
		}
	}
	for len(work) > 0 {
		it := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[it.pc] || barriers[it.pc] {
			continue
		}
		seen[it.pc] = true
		b := c.Blocks[it.pc]
		eff := simulate(b, it.s)
		next, hasNext := b.Last().Next(), b.hasNext
		target, targetOK := eff.target.u64()
		targetOK = targetOK && c.isJumpDest(target)
		switch op := b.Last().Op; {
		case op == vm.JUMPI && eff.cond.kind == selectorEq:
			if targetOK {
				record(eff.cond, target, it.s)
			}
			if hasNext {
				work = append(work, item{next, it.s})
			}
		case op == vm.JUMPI && eff.cond.kind == selectorNe:
			if hasNext {
				record(eff.cond, next, it.s)
			}
			if targetOK {
				work = append(work, item{target, it.s})
			}
		case op == vm.JUMPI:
			if hasNext {
				work = append(work, item{next, it.s.clone()})
			}
			if targetOK {
				work = append(work, item{target, it.s})
			}
		case op == vm.JUMP:
			if targetOK {
				work = append(work, item{target, it.s})
			}
		case !endsBlock(op) && hasNext:
			work = append(work, item{next, it.s})
		}
	}
	return routes
}

func selectorKey(v absValue) [4]byte {
	var k [4]byte
	b := v.n.Bytes32()
	copy(k[:], b[28:])
	return k
}

// RecoverFunctions maps the dispatcher routes of c to the functions of the
// ABI (JSON as solc emits it) and searches paths from each entry with
// DefaultLimits. See RecoverFunctionsWithLimits.
func RecoverFunctions(c *CFG, abiJSON []byte) ([]Function, error) {
	return RecoverFunctionsWithLimits(c, abiJSON, DefaultLimits)
}

// RecoverFunctionsWithLimits returns one Function per ABI function, sorted
// by selector. Routes whose selector the ABI does not name are dropped
// (see Dispatch for all routes). The jump edges the path search resolves
// are added to the Succs of their blocks once every function is explored,
// so the result does not depend on the order functions are searched.
func RecoverFunctionsWithLimits(c *CFG, abiJSON []byte, lim Limits) ([]Function, error) {
	parsed, err := abi.JSON(bytes.NewReader(abiJSON))
	if err != nil {
		return nil, fmt.Errorf("bytecode: parse ABI: %w", err)
	}
	routes := map[[4]byte]Route{}
	for _, r := range Dispatch(c) {
		routes[r.Selector] = r
	}
	resolved := map[[2]uint64]bool{}
	fns := make([]Function, 0, len(parsed.Methods))
	for _, m := range parsed.Methods {
		fn := Function{
			Name: m.RawName, Signature: m.Sig,
			ReadOnly: m.IsConstant(), Payable: m.IsPayable(),
			Critical: map[string]bool{},
		}
		copy(fn.Selector[:], m.ID)
		if r, ok := routes[fn.Selector]; ok {
			paths := explore(c, r.Entry, r.stack.clone(), lim)
			states := reach(c, r.Entry, r.stack.clone(), lim.withDefaults().MaxStates)
			fn.fill(r.Entry, paths, states)
			for e := range paths.resolved {
				resolved[e] = true
			}
			for e := range states.resolved {
				resolved[e] = true
			}
		}
		fns = append(fns, fn)
	}
	for e := range resolved {
		b := c.Blocks[e[0]]
		b.Succs = insertSorted(b.Succs, e[1])
	}
	sort.Slice(fns, func(i, j int) bool { return bytes.Compare(fns[i].Selector[:], fns[j].Selector[:]) < 0 })
	return fns, nil
}

// fill records the path search and the reachability summary. Paths give
// the path counts; flags, classes and Blocks are the union of both, so
// they stay complete when the path search runs out of budget.
func (fn *Function) fill(entry uint64, paths pathSummary, states reachSummary) {
	fn.Entry, fn.Recovered = entry, true
	fn.HasSSTORE = paths.hasSStore || states.hasSStore
	fn.HasSLOAD = paths.hasSLoad || states.hasSLoad
	fn.Critical = (paths.classes | states.classes).names()
	fn.Paths, fn.CriticalPaths = paths.complete, paths.critical
	fn.CriticalPathBlocks = paths.criticalPaths
	fn.Truncated, fn.Cuts = paths.truncated || states.truncated, paths.cuts
	fn.Cuts.States = states.truncated
	for pc := range states.blocks {
		paths.blocks[pc] = true
	}
	for pc := range paths.blocks {
		fn.Blocks = append(fn.Blocks, pc)
	}
	slices.Sort(fn.Blocks)
	fn.StorageScore = storageScore(fn.HasSSTORE, fn.HasSLOAD)
}

func storageScore(sstore, sload bool) int {
	switch {
	case sstore:
		return 2
	case sload:
		return 1
	}
	return 0
}

// CandidateOrder orders functions for transaction sequences (SAEFUZZ's
// storage dependency): functions the dispatcher does not route are
// dropped, state-changing functions come before read-only ones, and within
// each group a higher StorageScore comes first (writers before readers),
// ties broken by selector so the order is deterministic. The input is not
// modified.
func CandidateOrder(fns []Function) []Function {
	out := make([]Function, 0, len(fns))
	for _, fn := range fns {
		if fn.Recovered {
			out = append(out, fn)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.ReadOnly != b.ReadOnly {
			return !a.ReadOnly
		}
		if a.StorageScore != b.StorageScore {
			return a.StorageScore > b.StorageScore
		}
		return bytes.Compare(a.Selector[:], b.Selector[:]) < 0
	})
	return out
}
