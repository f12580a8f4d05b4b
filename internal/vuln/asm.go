package vuln

import (
	"fmt"

	"github.com/ethereum/go-ethereum/core/vm"
)

// asm is a tiny two-pass assembler for the hand-written attacker: opcodes,
// PUSHes of constants and of labels (always PUSH2), and label definitions.
type asm struct {
	code   []byte
	labels map[string]int
	fixups map[int]string // offset of a PUSH2 immediate -> label
}

func newAsm() *asm { return &asm{labels: map[string]int{}, fixups: map[int]string{}} }

func (a *asm) op(ops ...vm.OpCode) *asm {
	for _, o := range ops {
		a.code = append(a.code, byte(o))
	}
	return a
}

// push emits the shortest PUSH of b (PUSH1 0 for an empty b).
func (a *asm) push(b ...byte) *asm {
	for len(b) > 1 && b[0] == 0 {
		b = b[1:]
	}
	if len(b) == 0 {
		b = []byte{0}
	}
	a.code = append(a.code, byte(vm.PUSH1)+byte(len(b)-1))
	a.code = append(a.code, b...)
	return a
}

func (a *asm) pushN(n uint64) *asm {
	var b [8]byte
	for i := range b {
		b[7-i] = byte(n >> (8 * i))
	}
	return a.push(b[:]...)
}

// pushLabel emits PUSH2 <label>, resolved by assemble.
func (a *asm) pushLabel(name string) *asm {
	a.code = append(a.code, byte(vm.PUSH2))
	a.fixups[len(a.code)] = name
	a.code = append(a.code, 0, 0)
	return a
}

// label defines name here and emits its JUMPDEST.
func (a *asm) label(name string) *asm {
	a.labels[name] = len(a.code)
	return a.op(vm.JUMPDEST)
}

func (a *asm) assemble() ([]byte, error) {
	for off, name := range a.fixups {
		pc, ok := a.labels[name]
		if !ok {
			return nil, fmt.Errorf("vuln: asm: undefined label %q", name)
		}
		a.code[off], a.code[off+1] = byte(pc>>8), byte(pc)
	}
	return a.code, nil
}
