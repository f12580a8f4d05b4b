package bytecode

import (
	"math/rand"
	"testing"

	"github.com/ethereum/go-ethereum/core/vm"
)

// exercise runs every entry point on code; it must never panic and the
// CFG invariants must hold whatever the bytes.
func exercise(t *testing.T, code, abiJSON []byte) {
	t.Helper()
	Disassemble(code)
	JumpTargets(code)
	c := BuildCFG(code)
	checkCFGInvariants(t, c)
	if _, err := RecoverFunctionsWithLimits(c, abiJSON, Limits{MaxPaths: 64, MaxDepth: 128, MaxSteps: 2000, MaxStates: 2000}); err != nil {
		t.Fatal(err)
	}
	for i, pc := range c.Starts {
		_ = c.AddDynamicEdge(pc, c.Starts[(i*7)%len(c.Starts)])
	}
	CandidateOrder(nil)
}

func FuzzBuildCFG(f *testing.F) {
	tok := loadFixture(f, fixtures[2])
	for _, fx := range fixtures {
		f.Add(loadFixture(f, fx).code)
	}
	f.Add([]byte{})
	f.Add([]byte{byte(vm.PUSH32), 1, 2})
	f.Add([]byte{0x5b, 0x56, 0x5b, 0x57, 0x00, 0x29})
	f.Fuzz(func(t *testing.T, code []byte) { exercise(t, code, tok.abi) })
}

// TestRandomCodeNeverPanics runs the fuzz body on seeded random inputs so
// plain `go test` covers it: uniform bytes, bytes biased to control flow
// and stack opcodes, and fixtures with random bytes overwritten.
func TestRandomCodeNeverPanics(t *testing.T) {
	rng := rand.New(rand.NewSource(42))
	var toks []fixture
	for _, fx := range fixtures {
		toks = append(toks, loadFixture(t, fx))
	}
	biased := []byte{0x56, 0x57, 0x5b, 0x5f, 0x60, 0x61, 0x80, 0x81, 0x90, 0x50, 0x14, 0x15, 0x35, 0x1c, 0xf1, 0x00, 0xfd}
	for i := range 900 {
		var code []byte
		switch i % 3 {
		case 0:
			code = make([]byte, rng.Intn(400))
			rng.Read(code)
		case 1:
			code = make([]byte, rng.Intn(400))
			for j := range code {
				code[j] = biased[rng.Intn(len(biased))]
			}
		case 2:
			tok := toks[rng.Intn(len(toks))]
			code = append([]byte(nil), tok.code...)
			for range 1 + rng.Intn(8) {
				code[rng.Intn(len(code))] = byte(rng.Intn(256))
			}
		}
		exercise(t, code, toks[0].abi)
	}
}
