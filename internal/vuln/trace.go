package vuln

import (
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/tracing"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/holiman/uint256"

	"github.com/solbehave/solbehave/internal/bytecode"
)

// evKind is what an event records.
type evKind uint8

const (
	evSLoad        evKind = iota // SLOAD by the target's code
	evSStore                     // SSTORE in the target's storage (its code, or code it delegated to)
	evCall                       // CALL, CALLCODE, DELEGATECALL, STATICCALL in the target's context
	evJumpI                      // JUMPI of the target's code whose condition carries block state
	evOverflow                   // ADD/SUB/MUL/DIV/MOD of the target's code whose result leaves the integer range (see arith, narrow)
	evSelfDestruct               // SELFDESTRUCT in the target's context
	evEnv                        // TIMESTAMP or NUMBER read by the target's code
	evValueIn                    // a frame of the target's code entered with value > 0
	evCmp                        // LT/GT/SLT/SGT of the target's code with block state on one side (bothEnv: on both)
	evEq                         // EQ of the target's code with transaction input on one side only (a: that side)
)

// event is one observation of the tracer. Only the fields of its kind are set.
type event struct {
	kind  evKind
	op    vm.OpCode
	pc    uint64
	depth int
	frame int // serial of the frame it happened in

	slot, word uint256.Int // SLOAD/SSTORE slot and value; CALL value
	a, b       uint256.Int // overflow operands
	gas        uint64      // CALL gas operand (saturated)
	to         common.Address
	taint      label // SSTORE/CALL value, JUMPI condition, overflow result
	addrTaint  label // CALL target
	dataTaint  label // CALL input
	taken      bool  // JUMPI outcome
	ord        int   // JUMPI: its ordinal among the JUMPIs the target's code executed in the transaction

	targetCode  bool // executed by the target's own code (else by code running in its context)
	success     bool // CALL: the callee frame returned without reverting
	reverted    bool // the frame it happened in (or an enclosing one) rolled back
	reentered   bool // CALL: the target's code ran again before it returned
	nestedSends int  // CALL: successful value-carrying calls the target made meanwhile
	changed     bool // SSTORE: the stored word differs from the slot's value before it
	envFirst    bool // CMP: the first operand (a) is the block-state side
	bothEnv     bool // CMP: both operands carry block state
}

// opSet is a set of opcodes.
type opSet [4]uint64

func (s *opSet) add(op vm.OpCode)      { s[op>>6] |= 1 << (op & 63) }
func (s *opSet) has(op vm.OpCode) bool { return s[op>>6]&(1<<(op&63)) != 0 }
func (s *opSet) union(o opSet)         { s[0], s[1], s[2], s[3] = s[0]|o[0], s[1]|o[1], s[2]|o[2], s[3]|o[3] }
func (s *opSet) hasAny(ops ...vm.OpCode) bool {
	for _, op := range ops {
		if s.has(op) {
			return true
		}
	}
	return false
}

// txTrace is what the tracer saw during one transaction.
type txTrace struct {
	events []event
	ops    opSet // opcodes the target's code executed
}

// frame is one call frame of the transaction being traced.
type frame struct {
	serial     int
	targetCode bool           // running the target's code
	context    common.Address // storage/balance context
	stack      []label        // shadow stack (targetCode frames only)
	mem        memTaint
	start      int // first event index of the frame
	journal    int // storage-taint journal length at entry
	callEvent  int // the CALL event that created this frame, or -1
	pending    int // the CALL event whose callee is about to enter, or -1
	// results are the latest ADD, SUB and MUL results on tainted operands
	// that stayed within 256 bits: a narrower integer type's cleanup (AND
	// with 2^k−1, SIGNEXTEND) that changes one is an overflow of the
	// intended range (see narrow).
	results []arithResult
}

// maxResults bounds a frame's results: the latest ones a cleanup may still
// truncate.
const maxResults = 8

// arithResult is one ADD, SUB or MUL result a cleanup may still truncate.
type arithResult struct {
	value uint256.Int
	op    vm.OpCode
	pc    uint64
	a, b  uint256.Int
}

// undo restores one slot's storage taint when a frame reverts.
type undo struct {
	slot uint256.Int
	prev label
	had  bool
}

// tracer is the engine's go-ethereum tracer: a shadow taint stack, memory
// and storage for the target's code, the events the oracles read, and the
// coverage that drives fitness. It observes whatever the harness it is
// installed on runs; the engine turns it on per seed.
type tracer struct {
	target common.Address
	on     bool

	frames  []*frame
	serial  int
	tx      *txTrace
	storage map[uint256.Int]label // target storage taint, across the seed's transactions
	// deploySlots start every seed tainted srcDeployBlock (extension
	// deploy-block-state; nil under saefuzz).
	deploySlots []uint256.Int
	journal     []undo

	overflowSites map[uint64]label // pc -> its overflow bit (stable for the engine's life)
	cov           *coverage

	// state reads the target's storage as execution sees it (the fork
	// being run), so an SSTORE can tell whether it changes the slot.
	state func(slot uint256.Int) uint256.Int

	txIndex int        // index in the seed of the transaction being traced
	jumpis  int        // JUMPIs the target's code executed in it so far
	flip    *flipPoint // a counterfactual run: the JUMPI whose outcome is inverted
}

// flipPoint names one executed JUMPI of a seed: transaction tx, the ord-th
// JUMPI of the target's code in it. The tracer inverts its condition on the
// real stack before the EVM executes it (the block-state oracle's
// counterfactual run; execution is deterministic, so the same JUMPI comes
// up at the same ordinal).
type flipPoint struct {
	tx, ord int
}

func newTracer(target common.Address, codeLen int) *tracer {
	return &tracer{target: target, overflowSites: map[uint64]label{}, cov: newCoverage(codeLen)}
}

func (t *tracer) hooks() *tracing.Hooks {
	return &tracing.Hooks{OnEnter: t.onEnter, OnExit: t.onExit, OnOpcode: t.onOpcode}
}

// beginSeed forgets the storage taint and coverage of the previous seed.
func (t *tracer) beginSeed() {
	t.storage = map[uint256.Int]label{}
	for _, slot := range t.deploySlots {
		t.storage[slot] = srcDeployBlock
	}
	t.cov.reset()
	t.on = true
	t.txIndex = -1
}

// beginTx starts recording a transaction.
func (t *tracer) beginTx() *txTrace {
	t.tx = &txTrace{}
	t.txIndex++
	t.jumpis = 0
	t.frames = t.frames[:0]
	t.journal = t.journal[:0]
	return t.tx
}

func (t *tracer) top() *frame {
	if len(t.frames) == 0 {
		return nil
	}
	return t.frames[len(t.frames)-1]
}

func (t *tracer) onEnter(depth int, typ byte, from, to common.Address, input []byte, gas uint64, value *big.Int) {
	if !t.on || t.tx == nil {
		return
	}
	op := vm.OpCode(typ)
	t.serial++
	f := &frame{serial: t.serial, context: to, start: len(t.tx.events), journal: len(t.journal), callEvent: -1, pending: -1}
	if op == vm.DELEGATECALL || op == vm.CALLCODE {
		f.context = from
	}
	f.targetCode = to == t.target && op != vm.CREATE && op != vm.CREATE2
	if parent := t.top(); parent != nil {
		f.callEvent, parent.pending = parent.pending, -1
	}
	if f.targetCode {
		f.mem = memTaint{}
		t.markReentry()
		if value != nil && value.Sign() > 0 {
			t.add(event{kind: evValueIn, depth: depth + 1, frame: f.serial, targetCode: true, word: *uint256.MustFromBig(value)})
		}
	}
	t.frames = append(t.frames, f)
}

// markReentry flags every open CALL of the target's code below the frame
// being entered: the target runs again before that call returned.
func (t *tracer) markReentry() {
	for _, f := range t.frames {
		if f.callEvent >= 0 && t.tx.events[f.callEvent].targetCode {
			t.tx.events[f.callEvent].reentered = true
		}
	}
}

func (t *tracer) onExit(depth int, output []byte, gasUsed uint64, err error, reverted bool) {
	if !t.on || t.tx == nil || len(t.frames) == 0 {
		return
	}
	f := t.frames[len(t.frames)-1]
	t.frames = t.frames[:len(t.frames)-1]
	if reverted {
		for i := f.start; i < len(t.tx.events); i++ {
			t.tx.events[i].reverted = true
		}
		t.rollbackStorage(f.journal)
	}
	if f.callEvent < 0 {
		return
	}
	ev := &t.tx.events[f.callEvent]
	ev.success = !reverted
	if ev.success && ev.op == vm.CALL && !ev.word.IsZero() {
		for _, outer := range t.frames {
			if outer.callEvent >= 0 && t.tx.events[outer.callEvent].targetCode {
				t.tx.events[outer.callEvent].nestedSends++
			}
		}
	}
}

func (t *tracer) rollbackStorage(to int) {
	for i := len(t.journal) - 1; i >= to; i-- {
		u := t.journal[i]
		if u.had {
			t.storage[u.slot] = u.prev
		} else {
			delete(t.storage, u.slot)
		}
	}
	t.journal = t.journal[:to]
}

func (t *tracer) add(e event) int {
	t.tx.events = append(t.tx.events, e)
	return len(t.tx.events) - 1
}

func (t *tracer) onOpcode(pc uint64, opb byte, gas, cost uint64, scope tracing.OpContext, rData []byte, depth int, err error) {
	if !t.on || t.tx == nil || err != nil {
		return
	}
	f := t.top()
	if f == nil {
		return
	}
	op := vm.OpCode(opb)
	stack := scope.StackData()
	if !f.targetCode {
		if f.context == t.target {
			t.foreignOp(f, pc, op, stack, depth)
		}
		return
	}
	t.cov.hit(pc, op, stack)
	t.tx.ops.add(op)
	f.sync(len(stack))
	t.step(f, pc, op, stack, scope, depth)
}

// foreignOp records what other code does in the target's context (a library
// reached by DELEGATECALL): its storage writes and the Ether it sends.
func (t *tracer) foreignOp(f *frame, pc uint64, op vm.OpCode, stack []uint256.Int, depth int) {
	switch op {
	case vm.SSTORE:
		t.add(event{kind: evSStore, op: op, pc: pc, depth: depth, frame: f.serial, slot: peek(stack, 0), word: peek(stack, 1)})
	case vm.CALL, vm.CALLCODE:
		e := event{kind: evCall, op: op, pc: pc, depth: depth, frame: f.serial, word: peek(stack, 2), gas: sat64(peek(stack, 0))}
		e.to = common.Address(peekPtr(stack, 1).Bytes20())
		f.pending = t.add(e)
	case vm.SELFDESTRUCT:
		t.add(event{kind: evSelfDestruct, op: op, pc: pc, depth: depth, frame: f.serial})
	}
}

// sync fits the shadow stack to the real one. It only changes anything when
// an opcode's effect was not modelled exactly; the unknown words are clean.
func (f *frame) sync(n int) {
	switch {
	case len(f.stack) < n:
		pad := make([]label, n-len(f.stack), n)
		f.stack = append(pad, f.stack...)
	case len(f.stack) > n:
		f.stack = f.stack[len(f.stack)-n:]
	}
}

func (f *frame) pop(n int) label {
	var l label
	for i := 0; i < n && len(f.stack) > 0; i++ {
		l |= f.stack[len(f.stack)-1]
		f.stack = f.stack[:len(f.stack)-1]
	}
	return l
}

func (f *frame) push(l label) { f.stack = append(f.stack, l) }

// at is the label of the i-th word from the top (0 = top).
func (f *frame) at(i int) label {
	if i >= len(f.stack) {
		return 0
	}
	return f.stack[len(f.stack)-1-i]
}

func peek(stack []uint256.Int, i int) uint256.Int { return *peekPtr(stack, i) }

var zeroWord uint256.Int

func peekPtr(stack []uint256.Int, i int) *uint256.Int {
	if i >= len(stack) {
		return &zeroWord
	}
	return &stack[len(stack)-1-i]
}

// sat64 is w, or the largest uint64 when w does not fit.
func sat64(w uint256.Int) uint64 {
	if !w.IsUint64() {
		return ^uint64(0)
	}
	return w.Uint64()
}

// step applies op's effect to the shadow state and records its event.
func (t *tracer) step(f *frame, pc uint64, op vm.OpCode, stack []uint256.Int, scope tracing.OpContext, depth int) {
	switch {
	case op >= vm.PUSH0 && op <= vm.PUSH32:
		f.push(0)
		return
	case op >= vm.DUP1 && op <= vm.DUP16:
		f.push(f.at(int(op - vm.DUP1)))
		return
	case op >= vm.SWAP1 && op <= vm.SWAP16:
		n := int(op-vm.SWAP1) + 1
		if n < len(f.stack) {
			top := len(f.stack) - 1
			f.stack[top], f.stack[top-n] = f.stack[top-n], f.stack[top]
		}
		return
	}
	switch op {
	case vm.ADD, vm.SUB, vm.MUL, vm.DIV, vm.MOD:
		t.arith(f, pc, op, stack, depth)
	case vm.AND, vm.SIGNEXTEND:
		t.narrow(f, op, stack, depth)
	case vm.TIMESTAMP, vm.NUMBER:
		src := srcTimestamp
		if op == vm.NUMBER {
			src = srcNumber
		}
		t.add(event{kind: evEnv, op: op, pc: pc, depth: depth, frame: f.serial, targetCode: true})
		f.push(src)
	case vm.CALLDATALOAD:
		f.push(f.pop(1) | srcCalldata)
	case vm.CALLVALUE:
		f.push(srcCallValue)
	case vm.CALLER, vm.ORIGIN:
		f.push(srcCaller)
	case vm.BALANCE, vm.SELFBALANCE, vm.EXTCODESIZE, vm.EXTCODEHASH, vm.RETURNDATASIZE:
		pops, _ := bytecode.StackEffect(op)
		f.pop(pops)
		f.push(srcExternal)
	case vm.CALLDATACOPY:
		dst, size := peek(stack, 0), peek(stack, 2)
		f.pop(3)
		f.mem.fill(sat64(dst), sat64(size), srcCalldata)
	case vm.CODECOPY, vm.RETURNDATACOPY:
		dst, size := peek(stack, 0), peek(stack, 2)
		f.pop(3)
		f.mem.fill(sat64(dst), sat64(size), 0)
	case vm.EXTCODECOPY:
		dst, size := peek(stack, 1), peek(stack, 3)
		f.pop(4)
		f.mem.fill(sat64(dst), sat64(size), 0)
	case vm.MCOPY:
		dst, src, size := peek(stack, 0), peek(stack, 1), peek(stack, 2)
		f.pop(3)
		f.mem.fill(sat64(dst), sat64(size), f.mem.load(sat64(src), sat64(size)))
	case vm.MLOAD:
		off := peek(stack, 0)
		f.pop(1)
		f.push(f.mem.load(sat64(off), 32))
	case vm.MSTORE:
		off, l := peek(stack, 0), f.at(1)
		f.pop(2)
		f.mem.store32(sat64(off), l)
	case vm.MSTORE8:
		off, l := peek(stack, 0), f.at(1)
		f.pop(2)
		f.mem.union(sat64(off)/32, l)
	case vm.KECCAK256:
		off, size := peek(stack, 0), peek(stack, 1)
		f.pop(2)
		f.push(f.mem.load(sat64(off), sat64(size)))
	case vm.SLOAD:
		t.sload(f, pc, stack, depth)
	case vm.SSTORE:
		t.sstore(f, pc, stack, depth)
	case vm.JUMPI:
		t.jumpi(f, pc, stack, depth)
	case vm.CALL, vm.CALLCODE, vm.DELEGATECALL, vm.STATICCALL:
		t.call(f, pc, op, stack, depth)
	case vm.SELFDESTRUCT:
		f.pop(1)
		t.add(event{kind: evSelfDestruct, op: op, pc: pc, depth: depth, frame: f.serial, targetCode: true})
	case vm.LT, vm.GT, vm.SLT, vm.SGT:
		t.compare(f, pc, op, stack, depth)
	case vm.EQ:
		t.equal(f, pc, stack, depth)
	default:
		pops, pushes := bytecode.StackEffect(op)
		l := f.pop(pops)
		for range pushes {
			f.push(l)
		}
	}
}

// arith checks ADD, SUB, MUL, DIV and MOD (SAEFUZZ §3) on operands derived
// from a source for a result outside the integer range: a true result
// outside 256 bits (ADD, SUB, MUL), or a division or remainder by zero,
// which has none (the EVM gives 0 and goes on). It labels the result with
// the overflow site, so the oracle can follow it. A result within 256 bits
// is kept for narrow: a narrower type's cleanup may still truncate it. Two
// code-generation idioms are not counted: `0 - 1` (solc's all-ones mask
// for storage byte arrays) and a multiplication by a constant power of two
// (a left shift before SHL existed).
func (t *tracer) arith(f *frame, pc uint64, op vm.OpCode, stack []uint256.Int, depth int) {
	a, b := peekPtr(stack, 0), peekPtr(stack, 1)
	la, lb := f.at(0), f.at(1)
	l := f.pop(2)
	var over, shift bool
	var r uint256.Int
	switch op {
	case vm.ADD:
		_, over = r.AddOverflow(a, b)
	case vm.SUB:
		over = a.Lt(b) && !(a.IsZero() && b.IsUint64() && b.Uint64() == 1)
		r.Sub(a, b)
	case vm.MUL:
		_, over = r.MulOverflow(a, b)
		shift = la == 0 && isPow2(a) || lb == 0 && isPow2(b)
		over = over && !shift
	case vm.DIV, vm.MOD:
		over, shift = b.IsZero(), true
	}
	switch {
	case la|lb == 0:
	case over:
		bit := t.overflowLabel(pc)
		l |= bit
		t.add(event{kind: evOverflow, op: op, pc: pc, depth: depth, frame: f.serial, a: *a, b: *b, taint: bit, targetCode: true})
	case !shift:
		if len(f.results) == maxResults {
			// Drop the oldest in place: reslicing from 1 walked the window
			// along the array, so appends reallocated it every few results.
			f.results = f.results[:copy(f.results, f.results[1:])]
		}
		f.results = append(f.results, arithResult{value: r, op: op, pc: pc, a: *a, b: *b})
	}
	f.push(l)
}

// narrow is the intended-range half of the arithmetic check: a cleanup to a
// narrower integer type (AND with a mask 2^k−1, k a multiple of 8 below
// 256: uint8 … uint248; SIGNEXTEND: int8 … int248) that changes the result
// of a recent ADD, SUB or MUL (see arith) truncates a value outside the
// type's range: an overflow at that operation, which labels the cleaned
// value.
func (t *tracer) narrow(f *frame, op vm.OpCode, stack []uint256.Int, depth int) {
	x, y := peekPtr(stack, 0), peekPtr(stack, 1)
	l := f.pop(2)
	var value *uint256.Int
	var truncated bool
	switch op {
	case vm.AND:
		for _, p := range [][2]*uint256.Int{{x, y}, {y, x}} {
			if mask, v := p[0], p[1]; rangeMask(mask) && v.Gt(mask) {
				value, truncated = v, true
			}
		}
	case vm.SIGNEXTEND:
		if x.LtUint64(31) {
			var r uint256.Int
			r.ExtendSign(y, x)
			value, truncated = y, !r.Eq(y)
		}
	}
	if truncated {
		for i := len(f.results) - 1; i >= 0; i-- {
			if res := f.results[i]; res.value.Eq(value) {
				bit := t.overflowLabel(res.pc)
				l |= bit
				t.add(event{kind: evOverflow, op: res.op, pc: res.pc, depth: depth, frame: f.serial, a: res.a, b: res.b, taint: bit, targetCode: true})
				f.results = append(f.results[:i], f.results[i+1:]...)
				break
			}
		}
	}
	f.push(l)
}

// rangeMask reports whether w is 2^k−1 for k a multiple of 8 in [8, 248].
func rangeMask(w *uint256.Int) bool {
	k := w.BitLen()
	if k == 0 || k%8 != 0 || k == 256 {
		return false
	}
	var m uint256.Int
	m.AddUint64(w, 1)
	return isPow2(&m)
}

func isPow2(w *uint256.Int) bool {
	if w.IsZero() {
		return false
	}
	var m uint256.Int
	m.SubUint64(w, 1)
	return m.And(&m, w).IsZero()
}

// overflowLabel gives each overflowing pc its own bit; past 56 sites they
// share the last one.
func (t *tracer) overflowLabel(pc uint64) label {
	if l, ok := t.overflowSites[pc]; ok {
		return l
	}
	bit := min(overflowBit0+len(t.overflowSites), 63)
	l := label(1) << bit
	t.overflowSites[pc] = l
	return l
}

func (t *tracer) sload(f *frame, pc uint64, stack []uint256.Int, depth int) {
	slot := peek(stack, 0)
	f.pop(1)
	f.push(t.storage[slot] | srcStorage)
	ev := event{kind: evSLoad, op: vm.SLOAD, pc: pc, depth: depth, frame: f.serial, slot: slot, targetCode: true}
	if t.state != nil {
		ev.word = t.state(slot) // the value read (the reentrancy oracle tells a mutex's unlock by it)
	}
	t.add(ev)
}

func (t *tracer) sstore(f *frame, pc uint64, stack []uint256.Int, depth int) {
	slot, val := peek(stack, 0), peek(stack, 1)
	l := f.at(1)
	f.pop(2)
	prev, had := t.storage[slot]
	t.journal = append(t.journal, undo{slot: slot, prev: prev, had: had})
	// A slot keeps what was written into it; the "data" bit is what SLOAD adds.
	if l &^= srcStorage; l == 0 {
		delete(t.storage, slot)
	} else {
		t.storage[slot] = l
	}
	ev := event{kind: evSStore, op: vm.SSTORE, pc: pc, depth: depth, frame: f.serial, slot: slot, word: val, taint: l, targetCode: true, changed: true}
	if t.state != nil {
		cur := t.state(slot)
		ev.changed = cur != val
	}
	t.add(ev)
}

// compare records a comparison with the block's time or number on one side
// or both: one side only is a guard the sequence can satisfy by letting
// time pass (see timeHints); either is a deadline (timeLock). a is the
// first operand (the top).
func (t *tracer) compare(f *frame, pc uint64, op vm.OpCode, stack []uint256.Int, depth int) {
	la, lb := f.at(0)&liveEnv, f.at(1)&liveEnv
	l := f.pop(2)
	f.push(l)
	if la == 0 && lb == 0 {
		return
	}
	// Both sides block state (`last + 12 hours < now`, last stored from an
	// earlier `now`): no wait passes it (timeHints skips it), but it is a
	// deadline all the same (timeLock).
	t.add(event{kind: evCmp, op: op, pc: pc, depth: depth, frame: f.serial, a: peek(stack, 0), b: peek(stack, 1), taint: la | lb, envFirst: la != 0, bothEnv: la != 0 && lb != 0, targetCode: true})
}

// inputLabels are the parts of a transaction its sender chooses.
const inputLabels = srcCallValue | srcCalldata

// equal records an EQ one side of which derives from the transaction's
// input (its Ether value or call data) and the other does not, when the two
// differ: the exact value a guard or a guess asks for (`msg.value ==
// TICKET`, `n == answer`; see exactHints). a is the input side.
func (t *tracer) equal(f *frame, pc uint64, stack []uint256.Int, depth int) {
	la, lb := f.at(0), f.at(1)
	l := f.pop(2)
	f.push(l)
	if (la&inputLabels == 0) == (lb&inputLabels == 0) {
		return
	}
	in, other, li := peek(stack, 0), peek(stack, 1), la
	if la&inputLabels == 0 {
		in, other, li = other, in, lb
	}
	if in == other {
		return
	}
	t.add(event{kind: evEq, op: vm.EQ, pc: pc, depth: depth, frame: f.serial, a: in, b: other, taint: li & inputLabels, targetCode: true})
}

func (t *tracer) jumpi(f *frame, pc uint64, stack []uint256.Int, depth int) {
	cond := f.at(1)
	ord := t.jumpis
	t.jumpis++
	if fp := t.flip; fp != nil && fp.tx == t.txIndex && fp.ord == ord && len(stack) >= 2 {
		w := &stack[len(stack)-2] // the live stack: the EVM reads it next
		if w.IsZero() {
			w.SetOne()
		} else {
			w.Clear()
		}
	}
	taken := !peekPtr(stack, 1).IsZero()
	f.pop(2)
	if cond&envLabels != 0 {
		t.add(event{kind: evJumpI, op: vm.JUMPI, pc: pc, depth: depth, frame: f.serial, taint: cond, taken: taken, ord: ord, targetCode: true})
	}
}

// call records a CALL-family instruction of the target's code with the
// taint of its target, value and input; its success is filled in when the
// callee exits.
func (t *tracer) call(f *frame, pc uint64, op vm.OpCode, stack []uint256.Int, depth int) {
	e := event{kind: evCall, op: op, pc: pc, depth: depth, frame: f.serial, targetCode: true}
	e.gas = sat64(peek(stack, 0))
	e.to = common.Address(peekPtr(stack, 1).Bytes20())
	e.addrTaint = f.at(1)
	in := 2 // index of the input offset
	if op == vm.CALL || op == vm.CALLCODE {
		e.word, e.taint = peek(stack, 2), f.at(2)
		in = 3
	}
	inOff, inSize := sat64(peek(stack, in)), sat64(peek(stack, in+1))
	outOff, outSize := sat64(peek(stack, in+2)), sat64(peek(stack, in+3))
	e.dataTaint = f.mem.load(inOff, inSize)
	pops, _ := bytecode.StackEffect(op)
	f.pop(pops)
	f.mem.fill(outOff, outSize, 0)
	f.push(0)
	f.pending = t.add(e)
}
