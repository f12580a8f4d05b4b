package democorpus

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi"

	"github.com/solbehave/solbehave/internal/solc"
	"github.com/solbehave/solbehave/internal/soltext"
)

// TestAblationLedgers: each size-ablation ledger compiles and has exactly
// its number of non-trivial functions (the size filter's chain count, here
// also its state-changing ABI methods), in the 21-40 bins of Table VII, and
// the committed corpus holds every one.
func TestAblationLedgers(t *testing.T) {
	needCompilers(t)
	m := solc.NewManager(solc.Options{})
	defer m.Close()
	index, err := os.ReadFile("../../data/corpus/ablation/index.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, spec := range AblationSpecs() {
		src, err := spec.Source()
		if err != nil {
			t.Fatal(err)
		}
		_, abiJSON, err := compile(context.Background(), m, spec, src)
		if err != nil {
			t.Fatalf("%s: %v", spec.Name, err)
		}
		parsed, err := abi.JSON(bytes.NewReader(abiJSON))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, method := range parsed.Methods {
			if !method.IsConstant() {
				n++
			}
		}
		want := 0
		fmt.Sscanf(strings.TrimPrefix(spec.Name, "Ledger"), "%d", &want)
		chain, err := soltext.ChainCount(map[string]string{spec.Name + ".sol": src}, spec.Name)
		if n != want || chain != want || n < 21 || n > 40 {
			t.Errorf("%s: %d state-changing ABI functions, chain count %d (%v), want %d in 21-40", spec.Name, n, chain, err, want)
		}
		if !strings.Contains(string(index), `"`+spec.Name+`"`) {
			t.Errorf("%s is not in data/corpus/ablation (go run ./cmd/democorpus -ablation -out data/corpus/ablation)", spec.Name)
		}
	}
}
