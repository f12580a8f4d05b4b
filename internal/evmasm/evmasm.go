// Package evmasm is a tiny two-pass EVM assembler for hand-written bytecode:
// the vuln stage's attacker contract and the test contracts of chain and
// replay, and bytecode's analysis fixtures. It knows opcodes, shortest
// PUSHes of constants, PUSH4s of selectors, PUSH2s of labels (resolved once
// every label is placed) and raw bytes.
package evmasm

import (
	"encoding/binary"
	"fmt"

	"github.com/ethereum/go-ethereum/core/vm"
)

// Asm accumulates code; its methods chain.
type Asm struct {
	code   []byte
	labels map[string]int
	refs   map[int]string // offset of a PUSH2 operand -> label
	push0  bool           // Push(0) is PUSH0 (Shanghai and later)
}

// New starts an empty program.
func New() *Asm { return &Asm{labels: map[string]int{}, refs: map[int]string{}} }

// Op emits opcodes without operands.
func (a *Asm) Op(ops ...vm.OpCode) *Asm {
	for _, o := range ops {
		a.code = append(a.code, byte(o))
	}
	return a
}

// UsePush0 makes Push(0) emit PUSH0, for code that runs from Shanghai on.
func (a *Asm) UsePush0() *Asm {
	a.push0 = true
	return a
}

// Push emits the shortest PUSHn of v (PUSH1 0 for 0, so it runs before
// Shanghai, which brought PUSH0; see UsePush0).
func (a *Asm) Push(v uint64) *Asm {
	if v == 0 && a.push0 {
		return a.Op(vm.PUSH0)
	}
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], v)
	return a.PushBytes(b[:]...)
}

// PushBytes emits the shortest PUSHn of the word whose big-endian bytes are
// b (leading zeros dropped; PUSH1 0 for none).
func (a *Asm) PushBytes(b ...byte) *Asm {
	for len(b) > 1 && b[0] == 0 {
		b = b[1:]
	}
	if len(b) == 0 {
		b = []byte{0}
	}
	if len(b) > 32 {
		panic(fmt.Sprintf("evmasm: push of %d bytes", len(b)))
	}
	a.code = append(a.code, byte(vm.PUSH1)+byte(len(b)-1))
	a.code = append(a.code, b...)
	return a
}

// PushSelector emits PUSH4 of a function selector, all four bytes even with
// leading zeros, as compilers emit it.
func (a *Asm) PushSelector(sel uint32) *Asm {
	a.code = append(a.code, byte(vm.PUSH4))
	a.code = binary.BigEndian.AppendUint32(a.code, sel)
	return a
}

// PushLabel emits PUSH2 with the offset of a label placed before or after.
func (a *Asm) PushLabel(name string) *Asm {
	a.code = append(a.code, byte(vm.PUSH2))
	a.refs[len(a.code)] = name
	a.code = append(a.code, 0, 0)
	return a
}

// Label places a JUMPDEST and names its offset.
func (a *Asm) Label(name string) *Asm {
	a.Mark(name)
	return a.Op(vm.JUMPDEST)
}

// Mark names the current offset without emitting anything (for data).
func (a *Asm) Mark(name string) *Asm {
	a.labels[name] = len(a.code)
	return a
}

// PC is the offset of a placed label (0 for one not placed).
func (a *Asm) PC(name string) uint64 { return uint64(a.labels[name]) }

// Raw emits bytes as they are (data, or code assembled elsewhere).
func (a *Asm) Raw(b []byte) *Asm {
	a.code = append(a.code, b...)
	return a
}

// Assemble resolves the labels and returns a copy of the code; the program
// may grow further afterwards.
func (a *Asm) Assemble() ([]byte, error) {
	out := append([]byte(nil), a.code...)
	for at, name := range a.refs {
		pos, ok := a.labels[name]
		if !ok {
			return nil, fmt.Errorf("evmasm: undefined label %q", name)
		}
		binary.BigEndian.PutUint16(out[at:], uint16(pos))
	}
	return out, nil
}

// MustAssemble is Assemble for fixed programs, where an undefined label is a
// bug in the program itself.
func (a *Asm) MustAssemble() []byte {
	code, err := a.Assemble()
	if err != nil {
		panic(err)
	}
	return code
}
