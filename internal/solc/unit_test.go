package solc

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

func TestPrepareRejectsBadInput(t *testing.T) {
	cases := map[string]Input{
		"no sources":     {Compiler: "0.8.19"},
		"bad JSON":       {Compiler: "0.8.19", StandardJSON: []byte(`{"sources":`)},
		"vyper":          {Compiler: "0.8.19", StandardJSON: []byte(`{"language":"Vyper","sources":{"a.vy":{"content":"x"}}}`)},
		"urls only":      {Compiler: "0.8.19", StandardJSON: []byte(`{"language":"Solidity","sources":{"a.sol":{"urls":["bzz://x"]}}}`)},
		"no pragma":      {Sources: map[string]string{"a.sol": "contract A {}"}},
		"bad pragma":     {Sources: map[string]string{"a.sol": "pragma solidity ^0.4.x.y.z; contract A {}"}},
		"no such pragma": {Sources: map[string]string{"a.sol": "pragma solidity ^0.9.0; contract A {}"}},
	}
	for name, in := range cases {
		if _, err := prepare(in); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	j, err := prepare(Input{Compiler: "0.8.19", Sources: map[string]string{"a.sol": "x"}, Libraries: map[string]map[string]string{"a.sol": {"L": "0x12"}}})
	if err != nil {
		t.Fatal(err)
	}
	rel, _ := ResolveRelease("0.8.19")
	if _, _, err := j.standardInput(rel); err == nil || !strings.Contains(err.Error(), "0x12") {
		t.Errorf("short library address: %v", err)
	}
}

func TestStandardInputSettings(t *testing.T) {
	doc := `{{"language":"Solidity","sources":{"a.sol":{"content":"pragma solidity ^0.5.0;"}},"settings":{"optimizer":{"enabled":true,"runs":999},"evmVersion":"byzantium","outputSelection":{"*":{"*":["metadata"]}},"libraries":{"a.sol":{"X":"0x1111111111111111111111111111111111111111"}}}}}`
	j, err := prepare(Input{StandardJSON: []byte(doc), Optimize: false, EVMVersion: "london",
		Libraries: map[string]map[string]string{"b.sol": {"Y": "0x2222222222222222222222222222222222222222"}}})
	if err != nil {
		t.Fatal(err)
	}
	if j.requested != "0.5.17" {
		t.Errorf("pragma-derived compiler %q", j.requested)
	}
	rel, _ := ResolveRelease(j.requested)
	raw, _, err := j.standardInput(rel)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Settings struct {
			Optimizer struct {
				Enabled bool
				Runs    int
			}
			EVMVersion      string
			Libraries       map[string]map[string]string
			OutputSelection map[string]map[string][]string
		}
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	s := got.Settings
	if !s.Optimizer.Enabled || s.Optimizer.Runs != 999 || s.EVMVersion != "byzantium" {
		t.Errorf("recorded settings not kept: %+v", s)
	}
	if len(s.Libraries) != 2 || s.Libraries["b.sol"]["Y"] == "" || s.Libraries["a.sol"]["X"] == "" {
		t.Errorf("libraries %v", s.Libraries)
	}
	sel := strings.Join(s.OutputSelection["*"]["*"], ",")
	if strings.Contains(sel, "metadata") || !strings.Contains(sel, "storageLayout") || !strings.Contains(sel, "evm.deployedBytecode.object") {
		t.Errorf("output selection %s", sel)
	}
	old, _ := ResolveRelease("0.4.24")
	raw, _, _ = j.standardInput(old)
	if bytes.Contains(raw, []byte("legacyAST")) || !bytes.Contains(raw, []byte(`"ast"`)) || bytes.Contains(raw, []byte("storageLayout")) {
		t.Errorf("0.4.24 output selection (the compact AST only): %s", raw)
	}
	old, _ = ResolveRelease("0.4.11")
	if raw, _, _ = j.standardInput(old); !bytes.Contains(raw, []byte("legacyAST")) {
		t.Errorf("0.4.11 output selection (no compact AST yet, the legacy one): %s", raw)
	}
	j2, _ := prepare(Input{Compiler: "0.4.9", Sources: map[string]string{"a.sol": "x"}, EVMVersion: "byzantium"})
	rel049, _ := ResolveRelease("0.4.9")
	raw, notes, _ := j2.standardInput(rel049)
	if bytes.Contains(raw, []byte("evmVersion")) || len(notes) != 1 {
		t.Errorf("0.4.9 got evmVersion (%d notes)", len(notes))
	}
}

func TestLinkPlaceholders(t *testing.T) {
	addr := common.HexToAddress("0x00000000000000000000000000000000deadbeef")
	long := "contracts/very/long/path/to/some/Library.sol:MathLibrary" // old form truncates at 36
	code := "6001" + oldPlaceholder("lib.sol:Math") + "02" + newPlaceholder("lib.sol:Math") + "03" + oldPlaceholder(long) + "04"
	if len(oldPlaceholder(long)) != 40 || len(newPlaceholder("x")) != 40 {
		t.Fatal("placeholders must be 40 hex characters wide")
	}
	c := &Contract{Name: "T", Creation: code, LinkReferences: map[string]map[string][]LinkRef{
		"lib.sol": {"Math": nil}, "contracts/very/long/path/to/some/Library.sol": {"MathLibrary": nil},
	}}
	_, err := c.CreationCode(map[string]common.Address{"Math": addr})
	if err == nil || !strings.Contains(err.Error(), "MathLibrary") || strings.Contains(err.Error(), "lib.sol:Math,") {
		t.Fatalf("partly linked: %v", err)
	}
	out, err := c.CreationCode(map[string]common.Address{"Math": addr, "MathLibrary": addr})
	if err != nil {
		t.Fatal(err)
	}
	want := "6001" + strings.Repeat("0", 32) + "deadbeef02" + strings.Repeat("0", 32) + "deadbeef03" + strings.Repeat("0", 32) + "deadbeef04"
	if common.Bytes2Hex(out) != want {
		t.Fatalf("linked %x\nwant   %s", out, want)
	}
	// Without link references, a bare name still finds an old placeholder.
	bare := &Contract{Name: "T", Runtime: "60" + oldPlaceholder("x.sol:Math")}
	if _, err := bare.RuntimeCode(map[string]common.Address{"Math": addr}); err != nil {
		t.Fatal(err)
	}
	if _, err := (&Contract{Name: "T", Creation: "60__"}).CreationCode(nil); err == nil {
		t.Fatal("truncated placeholder accepted")
	}
	if _, err := (&Contract{Name: "T", Creation: "6"}).CreationCode(nil); err == nil {
		t.Fatal("odd hex accepted")
	}
}

func TestCompileErrorMessage(t *testing.T) {
	e := &CompileError{Compiler: "0.8.19", Diagnostics: []Diagnostic{
		{Severity: "warning", Formatted: "Warning: w"},
		{Severity: "error", Type: "ParserError", Formatted: "a.sol:1:2: ParserError: Expected ';'\n  code\n  ^"},
		{Severity: "error", Type: "TypeError", Message: "t"},
	}}
	if got := e.Error(); got != "solc 0.8.19: a.sol:1:2: ParserError: Expected ';' (and 1 more errors)" {
		t.Fatalf("%q", got)
	}
	var ce *CompileError
	if !errors.As(error(e), &ce) {
		t.Fatal("not a *CompileError")
	}
}

func TestLegacyDiagnostic(t *testing.T) {
	src := "pragma solidity ^0.4.9;\ncontract A {\n  uint x = 1\n}\n"
	d := diagnostic(stdError{Severity: "error", Type: "a.sol:3:13: ParserError: Expected token Semicolon got 'RBrace'",
		FormattedMessage: "a.sol:3:13: ParserError: Expected token Semicolon got 'RBrace'\n"}, map[string]string{"a.sol": src})
	if d.Type != "ParserError" || d.File != "a.sol" || d.Start != strings.Index(src, "1\n}")+1 {
		t.Fatalf("%+v", d)
	}
}
