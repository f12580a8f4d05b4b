package solast_test

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/solbehave/solbehave/internal/deploy/deploytest"
	"github.com/solbehave/solbehave/internal/solast"
	"github.com/solbehave/solbehave/internal/solc"
)

// A program spans files: the target's bases in another file resolve by id,
// the linearization is solc's (most derived first), and a name is found in
// file order whichever file defines it.
func TestProgramAcrossFiles(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node not on PATH: this test compiles with real solc")
	}
	files := map[string]string{
		"b/Base.sol":  "pragma solidity 0.8.19;\ncontract Root { uint x; }\ncontract Base is Root { function f() public { x = 1; } }\n",
		"a/Token.sol": "pragma solidity 0.8.19;\nimport \"../b/Base.sol\";\ncontract Mixin is Root {}\ncontract Token is Base, Mixin { function g() public {} }\n",
	}
	out := deploytest.Compile(t, solc.Input{Compiler: "0.8.19", Sources: files})
	prog, err := solast.ParseProgram(out.ASTs(), files)
	if err != nil {
		t.Fatal(err)
	}
	token := prog.Contract("Token")
	if token == nil || prog.Contract("Missing") != nil {
		t.Fatalf("Contract: Token %v, Missing found", token)
	}
	var names []string
	for _, c := range prog.Linearization(token) {
		names = append(names, c.Name)
	}
	if got := strings.Join(names, ","); got != "Token,Mixin,Base,Root" {
		t.Errorf("linearization %s, want solc's Token,Mixin,Base,Root", got)
	}
	if base := prog.Contract("Base"); base == nil || prog.Nodes[base.ID] != base {
		t.Error("a definition of another file is not indexed by its id")
	}
	if _, err := solast.ParseProgram(map[string]json.RawMessage{"x.sol": nil}, nil); err == nil {
		t.Error("a file without an AST was accepted")
	}
}
