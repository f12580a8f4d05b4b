package chain

import (
	"encoding/binary"
	"fmt"

	"github.com/ethereum/go-ethereum/core/vm"
)

// asm is a tiny assembler for the hand-written test contracts. Labels are
// resolved to 2-byte offsets.
type asm struct {
	code   []byte
	labels map[string]int
	refs   map[int]string // offset of a PUSH2 operand -> label
}

func newAsm() *asm { return &asm{labels: map[string]int{}, refs: map[int]string{}} }

func (a *asm) op(ops ...vm.OpCode) *asm {
	for _, o := range ops {
		a.code = append(a.code, byte(o))
	}
	return a
}

// push emits the shortest PUSHn of v (PUSH1 for 0, so it runs before Shanghai).
func (a *asm) push(v uint64) *asm {
	var buf [8]byte
	binary.BigEndian.PutUint64(buf[:], v)
	b := buf[:]
	for len(b) > 1 && b[0] == 0 {
		b = b[1:]
	}
	return a.pushBytes(b)
}

func (a *asm) pushBytes(b []byte) *asm {
	if len(b) == 0 || len(b) > 32 {
		panic(fmt.Sprintf("asm: push of %d bytes", len(b)))
	}
	a.code = append(a.code, byte(vm.PUSH1)+byte(len(b)-1))
	a.code = append(a.code, b...)
	return a
}

// pushLabel pushes the offset of a label (defined before or after).
func (a *asm) pushLabel(name string) *asm {
	a.code = append(a.code, byte(vm.PUSH2))
	a.refs[len(a.code)] = name
	a.code = append(a.code, 0, 0)
	return a
}

// jumpdest places a JUMPDEST and names its offset.
func (a *asm) jumpdest(name string) *asm {
	a.labels[name] = len(a.code)
	return a.op(vm.JUMPDEST)
}

// mark names the current offset without emitting anything (for data).
func (a *asm) mark(name string) *asm {
	a.labels[name] = len(a.code)
	return a
}

func (a *asm) raw(b []byte) *asm {
	a.code = append(a.code, b...)
	return a
}

func (a *asm) bytes() []byte {
	out := append([]byte(nil), a.code...)
	for at, name := range a.refs {
		pos, ok := a.labels[name]
		if !ok {
			panic("asm: undefined label " + name)
		}
		binary.BigEndian.PutUint16(out[at:], uint16(pos))
	}
	return out
}

// creationCode wraps runtime code in init code that runs ctor (may be nil)
// and then returns runtime. Constructor arguments may be appended to it.
func creationCode(ctor, runtime []byte) []byte {
	a := newAsm().raw(ctor).
		push(uint64(len(runtime))).op(vm.DUP1).pushLabel("runtime").push(0).op(vm.CODECOPY).
		push(0).op(vm.RETURN).
		mark("runtime").raw(runtime)
	return a.bytes()
}
