package vuln

import (
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/holiman/uint256"
	"github.com/solbehave/solbehave/internal/bitset"
)

// coverage is what one seed reached in the target's runtime code: program
// counters, and JUMPI outcomes (taken and not taken, per pc).
type coverage struct {
	pcs, taken, fell bitset.Set
}

func newCoverage(codeLen int) *coverage {
	n := codeLen + 1 // the implicit STOP past the end
	return &coverage{pcs: bitset.New(n), taken: bitset.New(n), fell: bitset.New(n)}
}

func (c *coverage) reset() {
	clear(c.pcs)
	clear(c.taken)
	clear(c.fell)
}

func (c *coverage) hit(pc uint64, op vm.OpCode, stack []uint256.Int) {
	c.pcs.Add(pc)
	if op != vm.JUMPI || len(stack) < 2 {
		return
	}
	if stack[len(stack)-2].IsZero() {
		c.fell.Add(pc)
	} else {
		c.taken.Add(pc)
	}
}

func (c *coverage) clone() *coverage {
	return &coverage{
		pcs:   append(bitset.Set(nil), c.pcs...),
		taken: append(bitset.Set(nil), c.taken...),
		fell:  append(bitset.Set(nil), c.fell...),
	}
}

// merge adds o and reports the new instructions and branch outcomes.
func (c *coverage) merge(o *coverage) (newPCs, newBranches int) {
	return c.pcs.Or(o.pcs), c.taken.Or(o.taken) + c.fell.Or(o.fell)
}

// instructions and branches count what is covered; code positions outside
// the analysed code (metadata) are never hit by execution, as they are not
// reachable instructions.
func (c *coverage) instructions() int { return c.pcs.Count() }
func (c *coverage) branches() int     { return c.taken.Count() + c.fell.Count() }
