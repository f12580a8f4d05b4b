package vuln

import (
	"math/bits"

	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/holiman/uint256"
)

// bitset is a fixed-size set of program counters.
type bitset []uint64

func newBitset(n int) bitset { return make(bitset, n/64+1) }

func (b bitset) set(i uint64) {
	if w := i >> 6; w < uint64(len(b)) {
		b[w] |= 1 << (i & 63)
	}
}

func (b bitset) has(i uint64) bool {
	w := i >> 6
	return w < uint64(len(b)) && b[w]&(1<<(i&63)) != 0
}

func (b bitset) count() int {
	n := 0
	for _, w := range b {
		n += bits.OnesCount64(w)
	}
	return n
}

// or adds o to b and reports how many bits were new.
func (b bitset) or(o bitset) int {
	added := 0
	for i := range b {
		if i < len(o) {
			added += bits.OnesCount64(o[i] &^ b[i])
			b[i] |= o[i]
		}
	}
	return added
}

func (b bitset) clear() { clear(b) }

// coverage is what one seed reached in the target's runtime code: program
// counters, and JUMPI outcomes (taken and not taken, per pc).
type coverage struct {
	pcs, taken, fell bitset
}

func newCoverage(codeLen int) *coverage {
	n := codeLen + 1 // the implicit STOP past the end
	return &coverage{pcs: newBitset(n), taken: newBitset(n), fell: newBitset(n)}
}

func (c *coverage) reset() {
	c.pcs.clear()
	c.taken.clear()
	c.fell.clear()
}

func (c *coverage) hit(pc uint64, op vm.OpCode, stack []uint256.Int) {
	c.pcs.set(pc)
	if op != vm.JUMPI || len(stack) < 2 {
		return
	}
	if stack[len(stack)-2].IsZero() {
		c.fell.set(pc)
	} else {
		c.taken.set(pc)
	}
}

func (c *coverage) clone() *coverage {
	return &coverage{
		pcs:   append(bitset(nil), c.pcs...),
		taken: append(bitset(nil), c.taken...),
		fell:  append(bitset(nil), c.fell...),
	}
}

// merge adds o and reports the new instructions and branch outcomes.
func (c *coverage) merge(o *coverage) (newPCs, newBranches int) {
	return c.pcs.or(o.pcs), c.taken.or(o.taken) + c.fell.or(o.fell)
}

// instructions and branches count what is covered; code positions outside
// the analysed code (metadata) are never hit by execution, as they are not
// reachable instructions.
func (c *coverage) instructions() int { return c.pcs.count() }
func (c *coverage) branches() int     { return c.taken.count() + c.fell.count() }
