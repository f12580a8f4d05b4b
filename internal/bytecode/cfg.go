package bytecode

import (
	"errors"
	"fmt"
	"slices"
	"sort"

	"github.com/ethereum/go-ethereum/core/vm"
)

// Block is a basic block: straight-line instructions entered only at Start.
type Block struct {
	Start, End uint64 // pcs of the first and the last instruction
	Instrs     []Instruction
	// Succs are the starts of the blocks control can reach next, sorted:
	// resolved jump targets, the fallthrough of JUMPI and of blocks cut by
	// a JUMPDEST, and edges added by AddDynamicEdge or found by
	// RecoverFunctions' path simulation.
	Succs []uint64
	// Critical lists the K instructions of the block (see ClassOf), a CALL
	// only when its value operand is not the constant 0 within the block.
	Critical []vm.OpCode
	// SStore and SLoad tell whether the block writes or reads storage.
	SStore, SLoad bool
	// Unresolved is set for a JUMP/JUMPI whose destination the intra-block
	// simulation could not compute (typically a return to a caller).
	Unresolved bool
	// BadJump is set when the destination is a known constant that is not a
	// JUMPDEST: that jump halts with an error.
	BadJump bool

	classes classBits
	target  absValue
	hasNext bool     // a block follows at Last().Next()
	dynamic []uint64 // targets added by AddDynamicEdge, sorted
}

// Last is the block's final instruction.
func (b *Block) Last() Instruction { return b.Instrs[len(b.Instrs)-1] }

// Halts reports whether the block ends execution (STOP, RETURN, REVERT,
// INVALID, SELFDESTRUCT, an undefined opcode, or the end of the code).
func (b *Block) Halts() bool {
	op := b.Last().Op
	return halts(op) || !endsBlock(op) && !b.hasNext
}

// fallsThrough reports whether control continues at the next instruction
// without a jump.
func (b *Block) fallsThrough() bool {
	op := b.Last().Op
	return op == vm.JUMPI || !endsBlock(op)
}

// CFG is the control-flow graph of runtime code. It is not safe for
// concurrent mutation (AddDynamicEdge, RecoverFunctions).
type CFG struct {
	Code     []byte // the analysed code: the runtime code without metadata
	Metadata []byte // the CBOR metadata tail with its length, or nil
	Instrs   []Instruction
	Blocks   map[uint64]*Block
	Starts   []uint64 // block starts, ascending
}

// BuildCFG disassembles code (dropping the metadata tail) and builds its
// CFG. Jump destinations are resolved by simulating each block alone on an
// unknown stack (see simulate): a target pushed anywhere in the same block
// and moved by DUP/SWAP/POP, or computed from constants, is resolved; a
// target that arrives on the stack from another block (a return address)
// is left Unresolved here and resolved per path by RecoverFunctions.
func BuildCFG(code []byte) *CFG {
	body, meta := SplitMetadata(code)
	c := &CFG{Code: body, Metadata: meta, Instrs: DisassembleRaw(body), Blocks: map[uint64]*Block{}}
	c.splitBlocks()
	scratch := &absStack{vals: make([]absValue, 0, 64)}
	for _, start := range c.Starts {
		scratch.vals = scratch.vals[:0]
		c.connect(c.Blocks[start], scratch)
	}
	return c
}

func (c *CFG) splitBlocks() {
	var cur *Block
	for i, in := range c.Instrs {
		if cur == nil || in.Op == vm.JUMPDEST && len(cur.Instrs) > 0 {
			cur = &Block{Start: in.PC}
			c.Blocks[in.PC] = cur
			c.Starts = append(c.Starts, in.PC)
		}
		cur.Instrs = c.Instrs[i-len(cur.Instrs) : i+1 : i+1]
		cur.End = in.PC
		cur.SStore = cur.SStore || in.Op == vm.SSTORE
		cur.SLoad = cur.SLoad || in.Op == vm.SLOAD
		if endsBlock(in.Op) {
			cur = nil
		}
	}
}

// connect computes b's static successors and critical instructions.
// s is scratch space, empty on entry.
func (c *CFG) connect(b *Block, s *absStack) {
	eff := simulate(b, s)
	b.Critical, b.classes, b.target = eff.critical, eff.classes, eff.target
	last := b.Last()
	if last.Op == vm.JUMP || last.Op == vm.JUMPI {
		if t, ok := eff.target.u64(); ok && c.isJumpDest(t) {
			b.Succs = append(b.Succs, t)
		} else if eff.target.isConst() {
			b.BadJump = true
		} else {
			b.Unresolved = true
		}
	}
	_, b.hasNext = c.Blocks[last.Next()]
	if b.fallsThrough() && b.hasNext {
		b.Succs = append(b.Succs, last.Next())
	}
	slices.Sort(b.Succs)
	b.Succs = slices.Compact(b.Succs)
}

// isJumpDest reports whether pc starts a block with a JUMPDEST in the code.
func (c *CFG) isJumpDest(pc uint64) bool {
	b, ok := c.Blocks[pc]
	return ok && b.Instrs[0].Op == vm.JUMPDEST
}

// BlockAt returns the block holding pc, or nil when pc is outside the code
// or inside PUSH data.
func (c *CFG) BlockAt(pc uint64) *Block {
	i := sort.Search(len(c.Starts), func(i int) bool { return c.Starts[i] > pc }) - 1
	if i < 0 {
		return nil
	}
	b := c.Blocks[c.Starts[i]]
	if pc > b.End {
		return nil
	}
	for _, in := range b.Instrs {
		if in.PC == pc {
			return b
		}
	}
	return nil
}

// Errors of AddDynamicEdge.
var (
	ErrNoSuchPC     = errors.New("bytecode: pc is not an instruction of the code")
	ErrNotJumpDest  = errors.New("bytecode: edge target is not a JUMPDEST")
	ErrNotJumpBlock = errors.New("bytecode: edge source block does not end in JUMP or JUMPI")
)

// AddDynamicEdge records a jump seen at run time from the block holding pc
// from (the JUMP/JUMPI itself or any pc of its block) to the JUMPDEST at to.
// Adding an edge that exists already is a no-op.
func (c *CFG) AddDynamicEdge(from, to uint64) error {
	b := c.BlockAt(from)
	if b == nil {
		return fmt.Errorf("%w: from %#x", ErrNoSuchPC, from)
	}
	if !c.isJumpDest(to) {
		return fmt.Errorf("%w: %#x", ErrNotJumpDest, to)
	}
	if op := b.Last().Op; op != vm.JUMP && op != vm.JUMPI {
		return fmt.Errorf("%w: block %#x ends in %s", ErrNotJumpBlock, b.Start, op)
	}
	b.Succs = insertSorted(b.Succs, to)
	b.dynamic = insertSorted(b.dynamic, to)
	return nil
}

func insertSorted(s []uint64, v uint64) []uint64 {
	i, found := slices.BinarySearch(s, v)
	if found {
		return s
	}
	return slices.Insert(s, i, v)
}

// Edges counts the CFG's edges.
func (c *CFG) Edges() int {
	n := 0
	for _, b := range c.Blocks {
		n += len(b.Succs)
	}
	return n
}
