package bytecode

// stateKey is a block entered in a calling context and at a stack height:
// the unit of the reachability summary.
type stateKey struct {
	block, ctx uint64
	height     int
}

// reachSummary is what the context-sensitive reachability search found:
// every block a function can reach, which the bounded path search may not
// get to when a function has more paths than Limits allow.
type reachSummary struct {
	blocks              map[uint64]bool
	classes             classBits
	hasSStore, hasSLoad bool // on a block that can still end without reverting
	truncated           bool // MaxStates ran out
	unresolved          int  // states ending at a jump with no known destination
	resolved            map[[2]uint64]bool
}

// reach explores the states (block, context, height) reachable from entry,
// each once, with the stack of its first arrival. A state counts for
// storage when some halt that does not revert is reachable from it (a cut
// at an unresolved jump counts as one, as in the path search).
func reach(c *CFG, entry uint64, s *absStack, maxStates int) reachSummary {
	sum := reachSummary{blocks: map[uint64]bool{}}
	if _, ok := c.Blocks[entry]; !ok {
		return sum
	}
	if s.ids == nil {
		s.ids = new(uint64)
	}
	e := &explorer{cfg: c, res: pathSummary{resolved: map[[2]uint64]bool{}}}
	index := map[stateKey]int{}
	var (
		blocks   []*Block
		stacks   []*absStack
		preds    [][]int
		succeeds []bool // a successful halt right after the state
	)
	add := func(pc uint64, st *absStack, from int) {
		key := stateKey{block: pc, ctx: e.context(st), height: len(st.vals)}
		i, seen := index[key]
		if !seen {
			if len(blocks) >= maxStates {
				sum.truncated = true
				return
			}
			i = len(blocks)
			index[key] = i
			blocks = append(blocks, c.Blocks[pc])
			stacks = append(stacks, st)
			preds = append(preds, nil)
			succeeds = append(succeeds, false)
		}
		if from >= 0 {
			preds[i] = append(preds[i], from)
		}
	}
	add(entry, s, -1)
	for i := 0; i < len(blocks); i++ {
		b, st := blocks[i], stacks[i]
		stacks[i] = nil // first-arrival stacks are needed only once
		eff := simulate(b, st)
		sum.blocks[b.Start] = true
		sum.classes |= eff.classes
		nexts := e.successors(b, eff)
		for j, n := range nexts {
			if n.terminal {
				succeeds[i] = succeeds[i] || n.end != endFailure
				continue
			}
			add(n.pc, successorStack(st, eff, nexts, j), i)
		}
	}
	sum.hasSStore, sum.hasSLoad = storageOnSuccess(blocks, preds, succeeds)
	sum.unresolved, sum.resolved = e.res.cuts.Unresolved, e.res.resolved
	return sum
}

// storageOnSuccess walks back from the states that end successfully and
// reports whether any state on the way writes or reads storage.
func storageOnSuccess(blocks []*Block, preds [][]int, succeeds []bool) (sstore, sload bool) {
	seen := make([]bool, len(blocks))
	var work []int
	for i, ok := range succeeds {
		if ok {
			seen[i] = true
			work = append(work, i)
		}
	}
	for len(work) > 0 {
		i := work[len(work)-1]
		work = work[:len(work)-1]
		sstore = sstore || blocks[i].SStore
		sload = sload || blocks[i].SLoad
		for _, p := range preds[i] {
			if !seen[p] {
				seen[p] = true
				work = append(work, p)
			}
		}
	}
	return sstore, sload
}
