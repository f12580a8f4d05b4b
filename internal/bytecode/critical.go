package bytecode

import "github.com/ethereum/go-ethereum/core/vm"

// Class names of the critical instruction set K (SAEFUZZ Table 2).
const (
	ClassArithmetic   = "arithmetic"   // ADD SUB MUL DIV MOD EXP
	ClassEnvironment  = "environment"  // TIMESTAMP NUMBER
	ClassCallValue    = "call_value"   // CALL whose value is not a known 0
	ClassDelegateCall = "delegatecall" // DELEGATECALL
	ClassCallCode     = "callcode"     // CALLCODE
	ClassSelfDestruct = "selfdestruct" // SELFDESTRUCT
)

// classBits is a set of K classes, one bit per class in classNames order.
type classBits uint8

var classNames = [...]string{
	ClassArithmetic, ClassEnvironment, ClassCallValue,
	ClassDelegateCall, ClassCallCode, ClassSelfDestruct,
}

func classBit(name string) classBits {
	for i, n := range classNames {
		if n == name {
			return 1 << i
		}
	}
	return 0
}

func (c classBits) names() map[string]bool {
	out := make(map[string]bool)
	for i, n := range classNames {
		if c&(1<<i) != 0 {
			out[n] = true
		}
	}
	return out
}

// ClassOf names the K class of op, or "" when op is not in K. CALL is
// always call_value here; callers that can see its value operand drop the
// calls that provably transfer nothing.
func ClassOf(op vm.OpCode) string {
	switch op {
	case vm.ADD, vm.SUB, vm.MUL, vm.DIV, vm.MOD, vm.EXP:
		return ClassArithmetic
	case vm.TIMESTAMP, vm.NUMBER:
		return ClassEnvironment
	case vm.CALL:
		return ClassCallValue
	case vm.DELEGATECALL:
		return ClassDelegateCall
	case vm.CALLCODE:
		return ClassCallCode
	case vm.SELFDESTRUCT:
		return ClassSelfDestruct
	}
	return ""
}

// callValueIndex is the depth of CALL's value operand (gas, address, value).
const callValueIndex = 2

// blockEffect is what simulating one block on a stack found.
type blockEffect struct {
	critical []vm.OpCode // K instructions, in order, duplicates removed
	classes  classBits
	target   absValue // JUMP/JUMPI destination
	cond     absValue // JUMPI condition
}

// simulate runs b's instructions on s (mutating it) and records the K
// instructions and the final jump operands.
func simulate(b *Block, s *absStack) blockEffect {
	var eff blockEffect
	for _, in := range b.Instrs {
		switch in.Op {
		case vm.JUMP:
			eff.target = s.peek(0)
		case vm.JUMPI:
			eff.target, eff.cond = s.peek(0), s.peek(1)
		}
		if class := ClassOf(in.Op); class != "" {
			if in.Op != vm.CALL || !s.peek(callValueIndex).isZero() {
				eff.addCritical(in.Op, class)
			}
		}
		s.step(in)
	}
	return eff
}

func (e *blockEffect) addCritical(op vm.OpCode, class string) {
	e.classes |= classBit(class)
	for _, seen := range e.critical {
		if seen == op {
			return
		}
	}
	e.critical = append(e.critical, op)
}
