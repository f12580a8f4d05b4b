package bytecode

import (
	"fmt"

	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/ethereum/go-ethereum/params"
	"github.com/holiman/uint256"
)

// Instruction is one decoded EVM instruction.
type Instruction struct {
	PC uint64
	Op vm.OpCode
	// Arg is the immediate of a PUSH1..PUSH32 as it appears in the code. It is
	// shorter than the push width when the code ends inside the immediate
	// (the EVM reads the missing bytes as zeros). Arg aliases the code given
	// to Disassemble; do not modify it.
	Arg []byte
}

// pushWidth is the immediate size of op: 1..32 for PUSH1..PUSH32, else 0.
func pushWidth(op vm.OpCode) int {
	if op >= vm.PUSH1 && op <= vm.PUSH32 {
		return int(op-vm.PUSH1) + 1
	}
	return 0
}

// Size is the number of code bytes the instruction occupies when complete.
func (in Instruction) Size() uint64 { return 1 + uint64(pushWidth(in.Op)) }

// Next is the pc of the instruction that follows.
func (in Instruction) Next() uint64 { return in.PC + in.Size() }

// Truncated reports whether the code ended inside the PUSH immediate.
func (in Instruction) Truncated() bool { return len(in.Arg) < pushWidth(in.Op) }

// Value is the word a PUSH places on the stack (zero for PUSH0), with a
// truncated immediate right-padded with zeros as the EVM does.
func (in Instruction) Value() uint256.Int {
	var v uint256.Int
	w := pushWidth(in.Op)
	if w == 0 {
		return v
	}
	var buf [32]byte
	copy(buf[32-w:], in.Arg)
	v.SetBytes32(buf[:])
	return v
}

func (in Instruction) String() string {
	if pushWidth(in.Op) > 0 {
		return fmt.Sprintf("0x%04x %s 0x%x", in.PC, in.Op, in.Arg)
	}
	return fmt.Sprintf("0x%04x %s", in.PC, in.Op)
}

// Disassemble decodes runtime bytecode after removing the Solidity/Vyper
// CBOR metadata tail when SplitMetadata detects one, so metadata bytes are
// never decoded as code. Data sections the compiler appends before the
// metadata (constructor code of created contracts, long constants) are not
// detectable without execution and are decoded as they come.
func Disassemble(code []byte) []Instruction {
	body, _ := SplitMetadata(code)
	return DisassembleRaw(body)
}

// DisassembleRaw decodes every byte of code as instructions.
func DisassembleRaw(code []byte) []Instruction {
	out := make([]Instruction, 0, len(code)/2+1)
	for pc := 0; pc < len(code); {
		op := vm.OpCode(code[pc])
		in := Instruction{PC: uint64(pc), Op: op}
		w := pushWidth(op)
		if w > 0 {
			end := min(pc+1+w, len(code))
			in.Arg = code[pc+1 : end : end]
		}
		out = append(out, in)
		pc += 1 + w
	}
	return out
}

// JumpTargets returns the valid JUMPDEST positions of code as the EVM
// computes them: every 0x5b byte that is not PUSH immediate data, over the
// whole code including any metadata tail (the EVM does not know about
// metadata).
func JumpTargets(code []byte) map[uint64]bool {
	dests := make(map[uint64]bool)
	for pc := 0; pc < len(code); pc++ {
		op := vm.OpCode(code[pc])
		if op == vm.JUMPDEST {
			dests[uint64(pc)] = true
		}
		pc += pushWidth(op)
	}
	return dests
}

// opInfo is what the analysis needs to know about one opcode.
type opInfo struct {
	defined      bool
	pops, pushes int
}

// opTable is derived from go-ethereum's Osaka instruction set, so stack
// arities and the set of defined opcodes follow the EVM itself.
var opTable = buildOpTable()

func buildOpTable() [256]opInfo {
	var t [256]opInfo
	jt, err := vm.LookupInstructionSet(params.Rules{IsOsaka: true})
	if err != nil {
		panic("bytecode: go-ethereum has no Osaka instruction set: " + err.Error())
	}
	for i, op := range jt {
		if op == nil {
			continue
		}
		lo, hi := op.Stack()
		t[i] = opInfo{
			defined: op.HasCost() || vm.OpCode(i) == vm.STOP,
			pops:    lo,
			pushes:  lo + int(params.StackLimit) - hi,
		}
	}
	return t
}

// StackEffect is how many words op takes off the stack and puts back.
func StackEffect(op vm.OpCode) (pops, pushes int) {
	return opTable[op].pops, opTable[op].pushes
}

// Defined reports whether op is an instruction of the latest EVM fork the
// analysis knows (Osaka); undefined opcodes halt execution.
func Defined(op vm.OpCode) bool { return opTable[op].defined }

// halts reports whether op ends execution of the frame.
func halts(op vm.OpCode) bool {
	switch op {
	case vm.STOP, vm.RETURN, vm.REVERT, vm.INVALID, vm.SELFDESTRUCT:
		return true
	}
	return !Defined(op)
}

// fails reports whether halting at op rolls the frame's state back.
func fails(op vm.OpCode) bool {
	switch op {
	case vm.STOP, vm.RETURN, vm.SELFDESTRUCT:
		return false
	}
	return true
}

// endsBlock reports whether op is the last instruction of a basic block.
func endsBlock(op vm.OpCode) bool {
	return op == vm.JUMP || op == vm.JUMPI || halts(op)
}
