package regen

import (
	"strings"
	"testing"

	"github.com/solbehave/solbehave/internal/skeleton"
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
		end, ok := skeleton.MatchBrace(body, 0)
		if !strings.HasPrefix(body, "{") || !ok || end != len(body)-1 {
			t.Fatalf("reply %q gave an unbalanced body %q", reply, body)
		}
	})
}

// FuzzMerge: merging a reply's code into the original (today's importer and
// repair path; issue #17 rewrites the importer merge) never panics, and a
// successful merge of code that defines the target still defines it.
func FuzzMerge(f *testing.F) {
	const base = "pragma solidity ^0.8.0;\nlibrary L { function f() internal {} }\ncontract Vault {\n    uint256 balance;\n    function withdraw(uint256 amount) public {}\n}\n"
	f.Add(base, "contract Vault {\n    uint256 balance;\n    function withdraw(uint256 amount) public { balance -= amount; }\n}")
	f.Add(base, "contract Other {}")
	f.Add("contract Vault {", "contract Vault {}")
	f.Fuzz(func(t *testing.T, base, code string) {
		out, err := Merge(base, code, "Vault")
		if err != nil {
			return
		}
		if _, ok := skeleton.FindContract(out, "Vault"); !ok && strings.Contains(code, "contract Vault") {
			t.Fatalf("merged source defines no Vault:\nbase %q\ncode %q\nout %q", base, code, out)
		}
	})
}
