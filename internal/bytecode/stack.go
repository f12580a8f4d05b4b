package bytecode

import (
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/holiman/uint256"
)

// valKind classifies an abstract stack value.
type valKind uint8

const (
	unknown      valKind = iota // any word; id names it when nonzero
	constant                    // a known word
	nonZero                     // unknown but not zero (learnt at a branch)
	isZeroOf                    // ISZERO(value id), a boolean
	isNonZeroOf                 // ISZERO(ISZERO(value id)), a boolean
	calldataHead                // CALLDATALOAD(0)
	selector                    // the 4-byte function selector taken from calldata
	selectorEq                  // selector == n (a boolean)
	selectorNe                  // selector != n (a boolean)
)

// absValue is one abstract stack value: a constant, a value derived from
// the calldata selector, or unknown. Unknown results carry an id so that a
// JUMPI on a value, or on its ISZERO, tells the other copies on the stack
// what the branch implies (see refine).
type absValue struct {
	kind valKind
	id   uint64
	n    uint256.Int
}

func constOf(v uint256.Int) absValue { return absValue{kind: constant, n: v} }
func constU64(v uint64) absValue     { return absValue{kind: constant, n: *uint256.NewInt(v)} }
func (v absValue) isConst() bool     { return v.kind == constant }
func (v absValue) isZero() bool      { return v.kind == constant && v.n.IsZero() }

// u64 returns the value when it is a constant that fits 64 bits.
func (v absValue) u64() (uint64, bool) {
	if v.kind != constant || !v.n.IsUint64() {
		return 0, false
	}
	return v.n.Uint64(), true
}

// maxAbsStack bounds the simulated stack like the EVM's 1024 limit.
const maxAbsStack = 1024

// truth tells whether v is known to be non-zero, when it is known.
func (v absValue) truth() (nonzero, known bool) {
	switch v.kind {
	case constant:
		return !v.n.IsZero(), true
	case nonZero:
		return true, true
	}
	return false, false
}

// absStack is the simulated operand stack; values below its bottom are
// unknown, so a block can be simulated without knowing its callers.
type absStack struct {
	vals []absValue
	ids  *uint64 // source of ids for unknown results; nil: anonymous
}

func (s *absStack) clone() *absStack {
	return &absStack{vals: append(make([]absValue, 0, len(s.vals)+8), s.vals...), ids: s.ids}
}

// fresh returns a new unknown value.
func (s *absStack) fresh() absValue {
	if s.ids == nil {
		return absValue{}
	}
	*s.ids++
	return absValue{id: *s.ids}
}

// pushResult pushes v, naming it when it is an anonymous unknown.
func (s *absStack) pushResult(v absValue) {
	if v.kind == unknown && v.id == 0 {
		v = s.fresh()
	}
	s.push(v)
}

// refine applies what taking (or not taking) a JUMPI on cond implies to
// the copies of the tested value left on the stack: solc reuses a DUPed
// flag for a later JUMPI (try/catch, short-circuit conditions), and a path
// that contradicts the first test would misalign the stack.
func (s *absStack) refine(cond absValue, taken bool) {
	var zero bool
	switch cond.kind {
	case unknown, isNonZeroOf:
		zero = !taken
	case isZeroOf:
		zero = taken
	default:
		return
	}
	if cond.id == 0 {
		return
	}
	for i, v := range s.vals {
		if v.id != cond.id {
			continue
		}
		switch v.kind {
		case unknown, nonZero:
			if zero {
				s.vals[i] = constU64(0)
			} else {
				s.vals[i] = absValue{kind: nonZero, id: v.id}
			}
		case isZeroOf:
			s.vals[i] = boolValue(zero)
		case isNonZeroOf:
			s.vals[i] = boolValue(!zero)
		}
	}
}

func (s *absStack) push(v absValue) {
	if len(s.vals) == maxAbsStack {
		s.vals = append(s.vals[:0], s.vals[1:]...)
	}
	s.vals = append(s.vals, v)
}

func (s *absStack) pop() absValue {
	if len(s.vals) == 0 {
		return absValue{}
	}
	v := s.vals[len(s.vals)-1]
	s.vals = s.vals[:len(s.vals)-1]
	return v
}

// peek returns the i-th value from the top (0 is the top).
func (s *absStack) peek(i int) absValue {
	if i >= len(s.vals) {
		return absValue{}
	}
	return s.vals[len(s.vals)-1-i]
}

func (s *absStack) dup(n int) { s.push(s.peek(n - 1)) }

func (s *absStack) swap(n int) {
	// Values missing below the bottom are unknown; materialise them so the
	// swap has both slots.
	for len(s.vals) <= n {
		s.vals = append([]absValue{{}}, s.vals...)
	}
	top, other := len(s.vals)-1, len(s.vals)-1-n
	s.vals[top], s.vals[other] = s.vals[other], s.vals[top]
}

// step applies one instruction to the stack. It models PUSH/DUP/SWAP/POP/PC
// exactly, folds arithmetic and comparisons over constants, tracks the
// selector through CALLDATALOAD(0) then DIV 2^224 / SHR 224 / AND
// 0xffffffff, and treats every other result as unknown.
func (s *absStack) step(in Instruction) {
	op := in.Op
	switch {
	case op >= vm.PUSH0 && op <= vm.PUSH32:
		s.push(constOf(in.Value()))
		return
	case op >= vm.DUP1 && op <= vm.DUP16:
		s.dup(int(op-vm.DUP1) + 1)
		return
	case op >= vm.SWAP1 && op <= vm.SWAP16:
		s.swap(int(op-vm.SWAP1) + 1)
		return
	}
	switch op {
	case vm.POP:
		s.pop()
	case vm.JUMPDEST:
	case vm.PC:
		s.push(constU64(in.PC))
	case vm.CALLDATALOAD:
		if s.pop().isZero() {
			s.push(absValue{kind: calldataHead})
		} else {
			s.push(s.fresh())
		}
	case vm.ISZERO:
		s.pushResult(isZero(s.pop()))
	case vm.NOT:
		s.pushResult(fold1(s.pop(), func(z, a *uint256.Int) { z.Not(a) }))
	default:
		if f := binaryOps[op]; f != nil {
			a := s.pop()
			b := s.pop()
			s.pushResult(f(a, b))
			return
		}
		info := opTable[op]
		for range info.pops {
			s.pop()
		}
		for range info.pushes {
			s.push(s.fresh())
		}
	}
}

func isZero(a absValue) absValue {
	switch a.kind {
	case unknown:
		if a.id != 0 {
			return absValue{kind: isZeroOf, id: a.id}
		}
	case nonZero:
		return constU64(0)
	case isZeroOf:
		return absValue{kind: isNonZeroOf, id: a.id}
	case isNonZeroOf:
		return absValue{kind: isZeroOf, id: a.id}
	case selectorEq:
		return absValue{kind: selectorNe, n: a.n}
	case selectorNe:
		return absValue{kind: selectorEq, n: a.n}
	case constant:
		return boolValue(a.n.IsZero())
	}
	return absValue{}
}

func boolValue(b bool) absValue {
	if b {
		return constU64(1)
	}
	return constU64(0)
}

func fold1(a absValue, f func(z, a *uint256.Int)) absValue {
	if !a.isConst() {
		return absValue{}
	}
	var z uint256.Int
	f(&z, &a.n)
	return constOf(z)
}

// fold2 evaluates f when both operands (a is the stack top) are constants.
func fold2(f func(z, a, b *uint256.Int)) func(a, b absValue) absValue {
	return func(a, b absValue) absValue {
		if !a.isConst() || !b.isConst() {
			return absValue{}
		}
		var z uint256.Int
		f(&z, &a.n, &b.n)
		return constOf(z)
	}
}

func cmp2(f func(a, b *uint256.Int) bool) func(a, b absValue) absValue {
	return func(a, b absValue) absValue {
		if !a.isConst() || !b.isConst() {
			return absValue{}
		}
		return boolValue(f(&a.n, &b.n))
	}
}

var (
	shift224     = uint256.NewInt(224)
	two224       = new(uint256.Int).Lsh(uint256.NewInt(1), 224)
	selectorMask = uint256.NewInt(0xffffffff)
	maxSelector  = uint256.NewInt(0xffffffff)
	foldedAdd    = fold2(func(z, a, b *uint256.Int) { z.Add(a, b) })
	foldedMul    = fold2(func(z, a, b *uint256.Int) { z.Mul(a, b) })
	foldedSub    = fold2(func(z, a, b *uint256.Int) { z.Sub(a, b) })
	foldedDiv    = fold2(func(z, a, b *uint256.Int) { z.Div(a, b) })
	foldedAnd    = fold2(func(z, a, b *uint256.Int) { z.And(a, b) })
	foldedShr    = fold2(func(z, a, b *uint256.Int) { shiftRight(z, a, b) })
	foldedEq     = cmp2(func(a, b *uint256.Int) bool { return a.Eq(b) })
)

func shiftRight(z, shift, value *uint256.Int) {
	if !shift.IsUint64() || shift.Uint64() >= 256 {
		z.Clear()
		return
	}
	z.Rsh(value, uint(shift.Uint64()))
}

func shiftLeft(z, shift, value *uint256.Int) {
	if !shift.IsUint64() || shift.Uint64() >= 256 {
		z.Clear()
		return
	}
	z.Lsh(value, uint(shift.Uint64()))
}

// binaryOps maps two-operand opcodes to their abstract evaluation; a is
// the stack top (the EVM's first operand).
var binaryOps = [256]func(a, b absValue) absValue{
	vm.ADD: foldedAdd,
	vm.MUL: foldedMul,
	vm.SUB: foldedSub,
	vm.DIV: divSelector,
	vm.MOD: fold2(func(z, a, b *uint256.Int) { z.Mod(a, b) }),
	vm.EXP: fold2(func(z, a, b *uint256.Int) { z.Exp(a, b) }),
	vm.LT:  cmp2(func(a, b *uint256.Int) bool { return a.Lt(b) }),
	vm.GT:  cmp2(func(a, b *uint256.Int) bool { return a.Gt(b) }),
	vm.EQ:  eqSelector,
	vm.AND: andSelector,
	vm.OR:  fold2(func(z, a, b *uint256.Int) { z.Or(a, b) }),
	vm.XOR: fold2(func(z, a, b *uint256.Int) { z.Xor(a, b) }),
	vm.SHL: fold2(shiftLeft),
	vm.SHR: shrSelector,
}

// divSelector recognises CALLDATALOAD(0) / 2^224 (solc before 0.5).
func divSelector(a, b absValue) absValue {
	if a.kind == calldataHead && b.isConst() && b.n.Eq(two224) {
		return absValue{kind: selector}
	}
	return foldedDiv(a, b)
}

// shrSelector recognises CALLDATALOAD(0) >> 224 (solc 0.5 and later).
func shrSelector(shift, value absValue) absValue {
	if value.kind == calldataHead && shift.isConst() && shift.n.Eq(shift224) {
		return absValue{kind: selector}
	}
	return foldedShr(shift, value)
}

// andSelector keeps the selector through AND 0xffffffff, in either order.
func andSelector(a, b absValue) absValue {
	if a.kind == selector && b.isConst() && b.n.Eq(selectorMask) ||
		b.kind == selector && a.isConst() && a.n.Eq(selectorMask) {
		return absValue{kind: selector}
	}
	return foldedAnd(a, b)
}

// eqSelector turns a comparison of the selector with a 4-byte constant into
// a selectorEq boolean, in either operand order.
func eqSelector(a, b absValue) absValue {
	if a.kind == selector && b.isConst() && !b.n.Gt(maxSelector) {
		return absValue{kind: selectorEq, n: b.n}
	}
	if b.kind == selector && a.isConst() && !a.n.Gt(maxSelector) {
		return absValue{kind: selectorEq, n: a.n}
	}
	return foldedEq(a, b)
}
