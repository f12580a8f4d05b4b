package bytecode

import (
	"encoding/hex"
	"os"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/core/vm"

	"github.com/solbehave/solbehave/internal/evmasm"
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

// selectorHead emits the 0.5+ selector computation: CALLDATALOAD(0) >> 224.
func selectorHead(a *evmasm.Asm) *evmasm.Asm {
	return a.Push(0).Op(vm.CALLDATALOAD).Push(0xe0).Op(vm.SHR)
}
