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

func TestMerge(t *testing.T) {
	base := "pragma solidity ^0.4.24;\nlibrary L { function f() internal {} }\ncontract Vault { uint x; }\ncontract Other {}\n"
	only := "Here:\ncontract Vault { uint y; function g() public {} }"
	got, err := Merge(base, ExtractCode(only, "contract Vault"), "Vault")
	if err != nil {
		t.Fatal(err)
	}
	if got != "pragma solidity ^0.4.24;\nlibrary L { function f() internal {} }\ncontract Vault { uint y; function g() public {} }\ncontract Other {}\n" {
		t.Fatalf("contract-only merge:\n%s", got)
	}
	whole := "pragma solidity ^0.4.24;\nlibrary L {}\ncontract Vault { uint z; }\ncontract Other { uint w; }"
	if got, err := Merge(base, whole, "Vault"); err != nil || got != whole+"\n" {
		t.Fatalf("whole-file merge: %q %v", got, err)
	}
	if _, err := Merge(base, "contract Nope {}", "Vault"); err == nil {
		t.Fatal("code without the target was merged")
	}
}

func TestSampleSeed(t *testing.T) {
	a := SampleSeed(42, "C", "mutant", 0)
	if a != SampleSeed(42, "C", "mutant", 0) || a == SampleSeed(42, "C", "mutant", 1) || a == SampleSeed(43, "C", "mutant", 0) ||
		a == SampleSeed(42, "C", "reference", 0) || a < 0 || a > 0x7fffffff {
		t.Fatal("sample seeds are not a deterministic, distinct 31-bit derivation")
	}
}
