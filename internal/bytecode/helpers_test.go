package bytecode

import (
	"encoding/hex"
	"encoding/json"
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

// fixtureSource is the fixture's Solidity source: testdata/token.sol with the
// fixture's edits (testdata/token_edits.json, which gen.js applies too).
func fixtureSource(t testing.TB, name string) string {
	t.Helper()
	src, err := os.ReadFile("testdata/token.sol")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile("testdata/token_edits.json")
	if err != nil {
		t.Fatal(err)
	}
	var edits map[string][][2]string
	if err := json.Unmarshal(raw, &edits); err != nil {
		t.Fatal(err)
	}
	text := string(src)
	for _, e := range edits[name] {
		if !strings.Contains(text, e[0]) {
			t.Fatalf("%s: token.sol lacks %q", name, e[0])
		}
		text = strings.Replace(text, e[0], e[1], 1)
	}
	return text
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

// TestFixtureSourcesAreTheirLanguagesTokens: each fixture's source, as gen.js
// compiles it, names its own compiler line (an edit that no longer matches
// token.sol fails in fixtureSource).
func TestFixtureSourcesAreTheirLanguagesTokens(t *testing.T) {
	pragmas := map[string]string{"token04": "^0.4.24;", "token05": "^0.5.0;", "token08": "^0.8.0;"}
	for _, f := range fixtures {
		if src := fixtureSource(t, f.name); !strings.HasPrefix(src, "pragma solidity "+pragmas[f.name]) {
			t.Errorf("%s: source starts %q", f.name, strings.SplitN(src, "\n", 2)[0])
		}
	}
}
