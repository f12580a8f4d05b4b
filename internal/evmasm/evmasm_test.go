package evmasm

import (
	"bytes"
	"testing"

	"github.com/ethereum/go-ethereum/core/vm"
)

func TestPushIsTheShortestEncoding(t *testing.T) {
	for _, c := range []struct {
		asm  *Asm
		want []byte
	}{
		{New().Push(0), []byte{byte(vm.PUSH1), 0}},
		{New().Push(0xff), []byte{byte(vm.PUSH1), 0xff}},
		{New().Push(0x100), []byte{byte(vm.PUSH2), 1, 0}},
		{New().PushBytes(), []byte{byte(vm.PUSH1), 0}},
		{New().PushBytes(0, 0, 0xab, 0xcd), []byte{byte(vm.PUSH2), 0xab, 0xcd}},
		{New().UsePush0().Push(0).Push(1), []byte{byte(vm.PUSH0), byte(vm.PUSH1), 1}},
		{New().PushSelector(0x00a9059c), []byte{byte(vm.PUSH4), 0, 0xa9, 0x05, 0x9c}},
	} {
		if got := c.asm.MustAssemble(); !bytes.Equal(got, c.want) {
			t.Errorf("got %x, want %x", got, c.want)
		}
	}
}

func TestLabelsResolveForwardAndBack(t *testing.T) {
	code := New().
		Label("top").                 // 0: JUMPDEST
		PushLabel("end").Op(vm.JUMP). // 1: PUSH2 end, 4: JUMP
		PushLabel("top").Op(vm.JUMP). // 5: PUSH2 top, 8: JUMP
		Label("end").                 // 9: JUMPDEST
		Mark("data").Raw([]byte{0xee}).
		MustAssemble()
	want := []byte{byte(vm.JUMPDEST), byte(vm.PUSH2), 0, 9, byte(vm.JUMP), byte(vm.PUSH2), 0, 0, byte(vm.JUMP), byte(vm.JUMPDEST), 0xee}
	if !bytes.Equal(code, want) {
		t.Fatalf("got %x, want %x", code, want)
	}
}

func TestPCIsTheLabelsOffset(t *testing.T) {
	a := New().Push(1).Op(vm.POP).Label("here")
	if a.PC("here") != 3 {
		t.Fatalf("PC(here) = %d, want 3", a.PC("here"))
	}
}

func TestUndefinedLabelIsAnError(t *testing.T) {
	if _, err := New().PushLabel("nowhere").Assemble(); err == nil {
		t.Fatal("a jump to an undefined label assembled")
	}
}
