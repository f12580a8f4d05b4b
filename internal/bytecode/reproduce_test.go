//go:build solcfixtures

package bytecode

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/solbehave/solbehave/internal/solc"
)

// TestReproduceFixtures recompiles the fixture sources with internal/solc
// (npm and Node needed, hence the build tag) and checks the fixtures are
// that compiler's output: same code before the metadata, same ABI
// selectors, and every function recovered from the fresh code.
func TestReproduceFixtures(t *testing.T) {
	versions := map[string]string{"token04": "0.4.24", "token05": "0.5.17", "token08": "0.8.19"}
	m := solc.NewManager(solc.Options{})
	defer m.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	eachFixture(t, func(t *testing.T, f fixture) {
		src := fixtureSource(t, f.name)
		out, err := m.Compile(ctx, solc.Input{Compiler: versions[f.name], Sources: map[string]string{"A.sol": src}, Optimize: true, Runs: 200})
		if err != nil {
			t.Fatal(err)
		}
		c, err := out.Contract("Token")
		if err != nil {
			t.Fatal(err)
		}
		code, err := c.RuntimeCode(nil)
		if err != nil {
			t.Fatal(err)
		}
		fresh, _ := SplitMetadata(code)
		stored, _ := SplitMetadata(f.code)
		if !bytes.Equal(fresh, stored) {
			t.Errorf("%s (%s) compiles to different code than the fixture", f.name, out.CompilerUsed)
		}
		if bytes.Equal(code, f.code) {
			t.Logf("%s: identical to the byte, metadata included", f.name)
		}
		want := abiMethods(t, f.abi)
		got := abiMethods(t, c.ABI)
		if len(got) != len(want) {
			t.Errorf("ABI has %d methods, fixture %d", len(got), len(want))
		}
		fns, err := RecoverFunctions(BuildCFG(code), c.ABI)
		if err != nil {
			t.Fatal(err)
		}
		for _, fn := range fns {
			if !fn.Recovered || want[fn.Selector].Sig != fn.Signature {
				t.Errorf("%s not recovered from fresh code", fn.Signature)
			}
		}
	})
}
