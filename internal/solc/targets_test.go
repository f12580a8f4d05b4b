package solc

import (
	"testing"
)

// srcHelper adds a contract nobody deploys beside C (and its library L).
const srcHelper = "\ncontract Helper { uint public y; function set(uint v) public { y = v * 2; } }\n"

// TestTargetsKeepCode compiles the same sources with bytecode for every
// contract and with Targets: the target's code (and the library it links)
// is byte for byte the same, the helper keeps its ABI but gets no code, and
// NoASTs leaves the trees out while the contract still resolves by name.
func TestTargetsKeepCode(t *testing.T) {
	m := testManager(t)
	for _, tc := range []struct{ compiler, src string }{
		{"v0.4.24+commit.e67f0147", src04},
		{"0.8.19", src08},
	} {
		sources := map[string]string{"c.sol": tc.src + srcHelper}
		all := compile(t, m, Input{Compiler: tc.compiler, Sources: sources, Optimize: true})
		targeted := compile(t, m, Input{Compiler: tc.compiler, Sources: sources, Optimize: true, Targets: []string{"c.sol:C"}})
		bare := compile(t, m, Input{Compiler: tc.compiler, Sources: sources, Optimize: true, Targets: []string{"C"}, NoASTs: true})
		want := mustContract(t, all, "C")
		for name, out := range map[string]*Output{"Targets": targeted, "Targets+NoASTs": bare} {
			got := mustContract(t, out, "C")
			if got.Creation != want.Creation || got.Runtime != want.Runtime || string(got.ABI) != string(want.ABI) {
				t.Errorf("%s %s: C's code or ABI differs from the full compile", tc.compiler, name)
			}
			if lib := mustContract(t, out, "L"); lib.Runtime == "" || lib.Runtime != mustContract(t, all, "L").Runtime {
				t.Errorf("%s %s: library L has no code or other code", tc.compiler, name)
			}
			helper := mustContract(t, out, "Helper")
			if helper.Creation != "" || len(helper.ABI) < 10 {
				t.Errorf("%s %s: Helper has code %q / ABI %s; want ABI only", tc.compiler, name, helper.Creation, helper.ABI)
			}
		}
		if mustContract(t, all, "Helper").Creation == "" {
			t.Errorf("%s: the full compile gave Helper no code", tc.compiler)
		}
		if src := targeted.Sources["c.sol"]; src == nil || len(src.AST) == 0 {
			t.Errorf("%s: Targets alone dropped the AST", tc.compiler)
		}
		if src := bare.Sources["c.sol"]; src == nil || len(src.AST) != 0 {
			t.Errorf("%s: NoASTs kept an AST (%+v)", tc.compiler, src)
		}
	}
}

func mustContract(t *testing.T, out *Output, name string) *Contract {
	t.Helper()
	c, err := out.Contract(name)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
