package bytecode

import (
	"encoding/hex"
	"os"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/core/vm"
)

// fixture is one compiled contract from testdata (see testdata/README.md).
type fixture struct {
	name       string
	code, abi  []byte
	metaPrefix string // hex of the metadata tail's first bytes
}

var fixtures = []fixture{
	{name: "token04", metaPrefix: "a165" + hex.EncodeToString([]byte("bzzr0"))},
	{name: "token05", metaPrefix: "a265" + hex.EncodeToString([]byte("bzzr1"))},
	{name: "token08", metaPrefix: "a264" + hex.EncodeToString([]byte("ipfs"))},
}

func loadFixture(t testing.TB, f fixture) fixture {
	t.Helper()
	h, err := os.ReadFile("testdata/" + f.name + ".hex")
	if err != nil {
		t.Fatal(err)
	}
	f.code, err = hex.DecodeString(strings.TrimSpace(string(h)))
	if err != nil {
		t.Fatalf("%s: %v", f.name, err)
	}
	if f.abi, err = os.ReadFile("testdata/" + f.name + ".abi.json"); err != nil {
		t.Fatal(err)
	}
	return f
}

func eachFixture(t *testing.T, fn func(t *testing.T, f fixture)) {
	for _, f := range fixtures {
		t.Run(f.name, func(t *testing.T) { fn(t, loadFixture(t, f)) })
	}
}

// assembler builds test bytecode with labelled JUMPDESTs.
type assembler struct {
	code   []byte
	labels map[string]int
	fixups map[int]string // position of a PUSH2 immediate -> label
}

func newAsm() *assembler {
	return &assembler{labels: map[string]int{}, fixups: map[int]string{}}
}

func (a *assembler) op(ops ...vm.OpCode) *assembler {
	for _, op := range ops {
		a.code = append(a.code, byte(op))
	}
	return a
}

// push emits the shortest PUSHn of v (PUSH0 for zero).
func (a *assembler) push(v uint64) *assembler {
	var b []byte
	for x := v; x > 0; x >>= 8 {
		b = append([]byte{byte(x)}, b...)
	}
	if len(b) == 0 {
		return a.op(vm.PUSH0)
	}
	a.code = append(a.code, byte(vm.PUSH1)+byte(len(b)-1))
	a.code = append(a.code, b...)
	return a
}

func (a *assembler) push4(sel uint32) *assembler {
	a.code = append(a.code, byte(vm.PUSH4), byte(sel>>24), byte(sel>>16), byte(sel>>8), byte(sel))
	return a
}

// ref emits PUSH2 <label>.
func (a *assembler) ref(label string) *assembler {
	a.code = append(a.code, byte(vm.PUSH2), 0, 0)
	a.fixups[len(a.code)-2] = label
	return a
}

// label emits a JUMPDEST named label.
func (a *assembler) label(name string) *assembler {
	a.labels[name] = len(a.code)
	return a.op(vm.JUMPDEST)
}

func (a *assembler) pc(label string) uint64 { return uint64(a.labels[label]) }

func (a *assembler) bytes(t testing.TB) []byte {
	t.Helper()
	out := append([]byte(nil), a.code...)
	for pos, l := range a.fixups {
		at, ok := a.labels[l]
		if !ok {
			t.Fatalf("undefined label %q", l)
		}
		out[pos], out[pos+1] = byte(at>>8), byte(at)
	}
	return out
}

// selectorHead emits the 0.5+ selector computation: CALLDATALOAD(0) >> 224.
func (a *assembler) selectorHead() *assembler {
	return a.push(0).op(vm.CALLDATALOAD).push(0xe0).op(vm.SHR)
}
