package bytecode

import (
	"bytes"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/core/vm"
)

func TestDisassemblePushWidths(t *testing.T) {
	code := []byte{0x5f, 0x60, 0xaa, 0x7f}
	code = append(code, bytes.Repeat([]byte{0x11}, 32)...)
	code = append(code, 0x5b, 0x61, 0xbb) // JUMPDEST, then PUSH2 with one byte left
	ins := DisassembleRaw(code)
	want := []struct {
		pc  uint64
		op  vm.OpCode
		arg int
	}{{0, vm.PUSH0, 0}, {1, vm.PUSH1, 1}, {3, vm.PUSH32, 32}, {36, vm.JUMPDEST, 0}, {37, vm.PUSH2, 1}}
	if len(ins) != len(want) {
		t.Fatalf("got %d instructions %v, want %d", len(ins), ins, len(want))
	}
	for i, w := range want {
		if ins[i].PC != w.pc || ins[i].Op != w.op || len(ins[i].Arg) != w.arg {
			t.Errorf("instruction %d = %v, want pc %d %s with %d immediate bytes", i, ins[i], w.pc, w.op, w.arg)
		}
	}
	last := ins[len(ins)-1]
	if !last.Truncated() || ins[2].Truncated() {
		t.Errorf("truncation: last %v, PUSH32 %v", last.Truncated(), ins[2].Truncated())
	}
	if v := last.Value(); v.Uint64() != 0xbb00 {
		t.Errorf("truncated PUSH2 0xbb reads as %#x, want 0xbb00 (right-padded like the EVM)", v.Uint64())
	}
	if v := ins[1].Value(); v.Uint64() != 0xaa {
		t.Errorf("PUSH1 0xaa value %#x", v.Uint64())
	}
	if got := ins[1].String(); got != "0x0001 PUSH1 0xaa" {
		t.Errorf("String() = %q", got)
	}
}

func TestOpcodeNamesFollowGoEthereum(t *testing.T) {
	for b := 0; b < 256; b++ {
		ins := DisassembleRaw([]byte{byte(b)})
		if ins[0].Op.String() != vm.OpCode(b).String() {
			t.Fatalf("%#x decoded as %s", b, ins[0].Op)
		}
	}
	for _, op := range []vm.OpCode{vm.STOP, vm.PUSH0, vm.CLZ, vm.MCOPY, vm.TSTORE, vm.SELFDESTRUCT} {
		if !Defined(op) {
			t.Errorf("%s should be defined", op)
		}
	}
	for _, op := range []vm.OpCode{vm.INVALID, 0x0c, 0xef, vm.RJUMP, vm.DUPN} {
		if Defined(op) {
			t.Errorf("%s should be undefined in legacy code", op)
		}
	}
}

func TestStackEffectFollowsGoEthereum(t *testing.T) {
	for _, c := range []struct {
		op           vm.OpCode
		pops, pushes int
	}{
		{vm.ADD, 2, 1}, {vm.PUSH1, 0, 1}, {vm.DUP1, 1, 2}, {vm.SWAP3, 4, 4},
		{vm.CALL, 7, 1}, {vm.SSTORE, 2, 0}, {vm.STOP, 0, 0},
	} {
		if pops, pushes := StackEffect(c.op); pops != c.pops || pushes != c.pushes {
			t.Errorf("%s: pops %d pushes %d, want %d %d", c.op, pops, pushes, c.pops, c.pushes)
		}
	}
}

func TestJumpTargetsSkipPushData(t *testing.T) {
	// PUSH2 0x5b5b hides two 0x5b bytes; the JUMPDEST at 3 is real.
	code := []byte{byte(vm.PUSH2), 0x5b, 0x5b, byte(vm.JUMPDEST), byte(vm.STOP), byte(vm.JUMPDEST)}
	got := JumpTargets(code)
	if len(got) != 2 || !got[3] || !got[5] {
		t.Fatalf("JumpTargets = %v, want {3, 5}", got)
	}
}

func TestSplitMetadataFixtures(t *testing.T) {
	eachFixture(t, func(t *testing.T, f fixture) {
		body, meta := SplitMetadata(f.code)
		if meta == nil {
			t.Fatal("no metadata found")
		}
		if !strings.HasPrefix(hex.EncodeToString(meta), f.metaPrefix) {
			t.Errorf("metadata starts %x, want %s", meta[:8], f.metaPrefix)
		}
		if size := int(meta[len(meta)-2])<<8 | int(meta[len(meta)-1]); size+2 != len(meta) {
			t.Errorf("metadata length suffix %d, tail is %d bytes", size, len(meta))
		}
		if len(body)+len(meta) != len(f.code) {
			t.Errorf("split loses bytes: %d + %d != %d", len(body), len(meta), len(f.code))
		}
		if last := vm.OpCode(body[len(body)-1]); last != vm.STOP && last != vm.INVALID {
			t.Errorf("code before the metadata ends in %s", last)
		}
		for _, in := range Disassemble(f.code) {
			if in.Next() > uint64(len(body)) && !in.Truncated() {
				t.Fatalf("instruction %v decoded from the metadata", in)
			}
		}
	})
}

func TestSplitMetadataRejectsNonMetadata(t *testing.T) {
	valid := func() []byte {
		m := []byte{0xa1, 0x64}
		m = append(m, "ipfs"...)
		m = append(m, 0x58, 0x22)
		m = append(m, bytes.Repeat([]byte{7}, 34)...)
		return append(m, 0, byte(len(m)))
	}
	code := append([]byte{byte(vm.PUSH1), 1, byte(vm.INVALID)}, valid()...)
	if _, meta := SplitMetadata(code); len(meta) != len(valid()) {
		t.Fatalf("valid tail not found: %x", meta)
	}
	cases := map[string][]byte{
		"empty":        nil,
		"one byte":     {0},
		"zero length":  {byte(vm.STOP), 0, 0},
		"too long":     {byte(vm.STOP), 0xa1, 0, 9},
		"unknown key":  append([]byte{0xfe, 0xa1, 0x63, 'f', 'o', 'o', 0xf5}, 0, 6),
		"short string": append([]byte{0xfe, 0xa1, 0x64, 'i', 'p', 'f', 's', 0x58, 0x22, 1}, 0, 9),
		"not a map":    append([]byte{0xfe, 0x64, 'i', 'p', 'f', 's'}, 0, 5),
		"trailing":     append([]byte{0xfe, 0xa1, 0x64, 's', 'o', 'l', 'c', 0x41, 1, 0}, 0, 9),
	}
	for name, c := range cases {
		body, meta := SplitMetadata(c)
		if meta != nil || !bytes.Equal(body, c) {
			t.Errorf("%s: stripped %x from %x", name, meta, c)
		}
	}
}
