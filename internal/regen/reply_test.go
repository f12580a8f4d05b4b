package regen

import (
	"strings"
	"testing"

	"github.com/solbehave/solbehave/internal/skeleton"
	"github.com/solbehave/solbehave/internal/solast"
)

var withdraw = skeleton.Function{Index: 2, Key: "withdraw", Name: "withdraw", Kind: "function",
	Params: []solast.Param{{Name: "amount", Type: "uint256"}}}

func TestExtractBodyForms(t *testing.T) {
	const want = "require(balance >= amount);"
	cases := map[string]string{
		"fenced function":            "```solidity\nfunction withdraw(uint256 amount) public {\n    require(balance >= amount);\n}\n```",
		"prose around fenced code":   "Sure! Here it is:\n\n```\nfunction withdraw(uint256 amount) public {\n  require(balance >= amount); // check\n}\n```\nThis reverts when the balance is too low.",
		"prose around bare function": "The implementation:\nfunction withdraw(uint256 amount) public { require(balance >= amount); balance -= amount; }\nHope this helps.",
		"body without signature":     "```solidity\nrequire(balance >= amount);\nbalance -= amount;\n```",
		"bare body with prose":       "Here is the body\n    require(balance >= amount);\n    balance -= amount;\nDone",
		"braced body":                "{ require(balance >= amount); }",
		"whole contract echoed":      "```solidity\ncontract Vault {\n function deposit(uint256 amount) public { balance += amount; }\n function withdraw(uint256 amount) public {\n  require(balance >= amount);\n }\n}\n```",
		"unclosed fence":             "```solidity\nfunction withdraw(uint256 amount) public {\n require(balance >= amount);\n}\n",
		"overload by arity":          "function withdraw() public { revert(); }\nfunction withdraw(uint256 amount) public { require(balance >= amount); }",
		"name in a comment first":    "// function withdraw(uint256 amount) is below\nfunction withdraw(uint256 amount) public { require(balance >= amount); }",
	}
	for name, reply := range cases {
		t.Run(name, func(t *testing.T) {
			body, err := ExtractBody(reply, withdraw, "Vault")
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(body, "{") || !strings.HasSuffix(body, "}") || !strings.Contains(body, want) {
				t.Fatalf("body %q", body)
			}
			if strings.Contains(body, "helps") || strings.Contains(body, "Sure") || strings.Contains(body, "Done") || strings.Contains(body, "revert") {
				t.Fatalf("prose or the wrong overload kept: %q", body)
			}
		})
	}
}

func TestExtractBodyRejectsGarbage(t *testing.T) {
	for name, reply := range map[string]string{
		"empty":           "",
		"prose only":      "I cannot help with that.",
		"unbalanced":      "function withdraw(uint256 amount) public { if (x) { balance -= amount; }",
		"todo left":       "function withdraw(uint256 amount) public { /* TODO */ }",
		"only a fence":    "```\n```",
		"braces in prose": "Use {braces} wisely",
	} {
		if body, err := ExtractBody(reply, withdraw, "Vault"); err == nil {
			t.Errorf("%s: accepted, body %q", name, body)
		}
	}
}

func TestExtractBodySpecialKinds(t *testing.T) {
	ctor := skeleton.Function{Kind: "constructor", Params: []solast.Param{{Name: "x"}}}
	for _, reply := range []string{"constructor(uint x) public { owner = msg.sender; }", "function Vault(uint x) public { owner = msg.sender; }"} {
		if body, err := ExtractBody(reply, ctor, "Vault"); err != nil || !strings.Contains(body, "owner = msg.sender") {
			t.Errorf("constructor from %q: %q %v", reply, body, err)
		}
	}
	fb := skeleton.Function{Kind: "fallback"}
	if body, err := ExtractBody("function() public payable { buy(); }", fb, "Vault"); err != nil || !strings.Contains(body, "buy()") {
		t.Errorf("old fallback: %q %v", body, err)
	}
}

// TestMergeDefinitions: every definition of a sample replaces the file's
// definition of that name (a base alone too); pragma, SPDX and prose never
// override the file's; a sample defining none of the file's contracts is
// refused, naming what it defines.
func TestMergeDefinitions(t *testing.T) {
	base := "// SPDX-License-Identifier: MIT\npragma solidity ^0.4.24;\nlibrary L { function f() internal {} }\ncontract Pausable { bool p; }\ncontract Vault is Pausable { uint x; }\ncontract Other {}\n"
	only := "Here's the contract:\ncontract Vault is Pausable { uint y; function g() public {} }\nIt's done."
	got, err := MergeDefinitions(base, SampleCode(only))
	if err != nil || got != strings.Replace(base, "contract Vault is Pausable { uint x; }", "contract Vault is Pausable { uint y; function g() public {} }", 1) {
		t.Fatalf("contract-only merge: %v\n%s", err, got)
	}
	whole := "Sure! Here it is:\n```solidity\n// SPDX-License-Identifier: UNLICENSED\npragma solidity ^0.8.20;\nlibrary L {}\ncontract Pausable { bool q; }\n```\nand the rest:\n```solidity\ncontract Vault is Pausable { uint z; }\ncontract Other { uint w; }\n```"
	got, err = MergeDefinitions(base, SampleCode(whole))
	want := "// SPDX-License-Identifier: MIT\npragma solidity ^0.4.24;\nlibrary L {}\ncontract Pausable { bool q; }\ncontract Vault is Pausable { uint z; }\ncontract Other { uint w; }\n"
	if err != nil || got != want {
		t.Fatalf("whole-file merge: %v\n%q\nwant\n%q", err, got, want)
	}
	got, err = MergeDefinitions(base, "abstract contract Pausable { bool paused; }\nlibrary Helper { function h() internal {} }")
	if err != nil || !strings.Contains(got, "abstract contract Pausable { bool paused; }\ncontract Vault is Pausable { uint x; }") ||
		!strings.HasSuffix(got, "contract Other {}\n\nlibrary Helper { function h() internal {} }\n") {
		t.Fatalf("base-only merge: %v\n%s", err, got)
	}
	if _, err := MergeDefinitions(base, "contract Nope {}\ninterface INope {}"); err == nil || !strings.Contains(err.Error(), "contract Nope, interface INope") {
		t.Fatalf("a sample without the file's contracts: %v", err)
	}
	if _, err := MergeDefinitions(base, "no code at all"); err == nil {
		t.Fatal("prose was merged")
	}
}

func TestSampleSeed(t *testing.T) {
	a := SampleSeed(42, "C", "mutant", 0)
	if a != SampleSeed(42, "C", "mutant", 0) || a == SampleSeed(42, "C", "mutant", 1) || a == SampleSeed(43, "C", "mutant", 0) ||
		a == SampleSeed(42, "C", "reference", 0) || a < 0 || a > 0x7fffffff {
		t.Fatal("sample seeds are not a deterministic, distinct 31-bit derivation")
	}
}
