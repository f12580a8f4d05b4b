package solc

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestContractDependenciesInOneOrder: solc 0.4.x writes a contract's
// contractDependencies in memory-address order, so one input has compiled
// to [63,166] and to [166,63] (PEF on mainnet, 0.4.18). Both outputs read
// back as one, so they store as one artifact; a list already in order and
// every other byte of the AST are kept.
func TestContractDependenciesInOneOrder(t *testing.T) {
	output := func(deps string) string {
		return `{"sources":{"a.sol":{"id":0,"legacyAST":{"name":"SourceUnit","children":[` +
			`{"name":"ContractDefinition","attributes":{"contractDependencies":` + deps +
			`,"linearizedBaseContracts":[170,166,63],"name":"PEF"}},` +
			`{"name":"ContractDefinition","attributes":{"contractDependencies":[ 1, 2 ],"name":"Other"}}]}}},"contracts":{}}`
	}
	parse := func(raw string) *Output {
		out, err := parseOutput([]byte(raw), map[string]string{"a.sol": ""}, "0.4.18")
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	stored := func(out *Output) string {
		b, err := json.Marshal(out)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if a, b := stored(parse(output("[63,166]"))), stored(parse(output("[166,63]"))); a != b {
		t.Fatalf("the same output in two dependency orders reads as two:\n%s\n%s", a, b)
	}
	ast := string(parse(output("[166, 63]")).Sources["a.sol"].AST)
	for _, want := range []string{`"contractDependencies":[63,166]`, `"linearizedBaseContracts":[170,166,63]`, `"contractDependencies":[ 1, 2 ]`} {
		if !strings.Contains(ast, want) {
			t.Errorf("AST lacks %s:\n%s", want, ast)
		}
	}
}
