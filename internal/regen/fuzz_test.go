package regen

import (
	"strings"
	"testing"

	"github.com/solbehave/solbehave/internal/soltext"
)

// FuzzExtractBody: whatever a model replies, the extractor returns one
// balanced `{...}` block or an error, never a panic.
func FuzzExtractBody(f *testing.F) {
	f.Add("```solidity\nfunction withdraw(uint256 amount) public {\n    require(balance >= amount);\n}\n```")
	f.Add("Here is the body\n    require(balance >= amount);\nDone")
	f.Add("{ require(balance >= amount); }")
	f.Fuzz(func(t *testing.T, reply string) {
		body, err := ExtractBody(reply, withdraw, "Vault")
		if err != nil {
			return
		}
		end, ok := soltext.MatchBrace(body, 0)
		if !strings.HasPrefix(body, "{") || !ok || end != len(body)-1 {
			t.Fatalf("reply %q gave an unbalanced body %q", reply, body)
		}
	})
}

// FuzzMerge: merging a sample's code into the original (the importer's and
// the repair's MergeDefinitions) never panics; a successful merge keeps
// every definition of the base, and takes the sample's definition of Vault
// where the sample defines one.
func FuzzMerge(f *testing.F) {
	const base = "pragma solidity ^0.8.0;\nlibrary L { function f() internal {} }\ncontract Vault {\n    uint256 balance;\n    function withdraw(uint256 amount) public {}\n}\n"
	f.Add(base, "contract Vault {\n    uint256 balance;\n    function withdraw(uint256 amount) public { balance -= amount; }\n}")
	f.Add(base, "contract Other {}")
	f.Add("contract Vault {", "contract Vault {}")
	f.Fuzz(func(t *testing.T, base, code string) {
		out, err := MergeDefinitions(base, code)
		if err != nil {
			return
		}
		for _, d := range soltext.Definitions(base) {
			if _, ok := soltext.FindContract(out, d.Name); !ok {
				t.Fatalf("merged source lost %s:\nbase %q\ncode %q\nout %q", d.Name, base, code, out)
			}
		}
	})
}
