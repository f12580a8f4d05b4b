package solc

import (
	"errors"
	"testing"
)

func TestResolveRelease(t *testing.T) {
	cases := []struct {
		in, version, pkg string
		substituted      bool
	}{
		{"v0.4.18+commit.9cf6e91f", "0.4.18", "solc@0.4.18", false},
		{"0.8.19", "0.8.19", "solc@0.8.19", false},
		{"v0.8.19", "0.8.19", "solc@0.8.19", false},
		{"0.4.24+commit.e67f0147.Emscripten.clang", "0.4.24", "solc@0.4.24", false},
		{"soljson-v0.5.17+commit.d19bba13.js", "0.5.17", "solc@0.5.17", false},
		{"v0.8.7+commit.e28d00a7", "0.8.7", "solc@0.8.7-fixed", false},
		{"0.8.14", "0.8.14", "solc@0.8.14-fixed", false},
		{"0.8.23", "0.8.23", "solc@0.8.23-fixed", false},
		{"0.8.7-fixed", "0.8.7", "solc@0.8.7-fixed", false},
		{"v0.4.20-nightly.2018.1.29+commit.a668b9de", "0.4.20", "solc@0.4.20", true},
		{"v0.4.22-nightly.2018.3.13+commit.f2614be9", "0.4.22", "solc@0.4.22", true},
		{"v0.4.27-nightly.2018.10.1+commit.abcdef12", "0.4.26", "solc@0.4.26", true}, // after the last 0.4 release
		{"v0.4.2+commit.af6afb04", "0.4.26", "solc@0.4.26", true},
		{"0.4.8", "0.4.26", "solc@0.4.26", true},
		{"0.3.6", "0.4.26", "solc@0.4.26", true},
		{"0.4.12", "0.4.13", "solc@0.4.13", true},
		{"0.8.30", "0.8.30", "solc@0.8.30", false},
	}
	for _, c := range cases {
		rel, err := ResolveRelease(c.in)
		if err != nil {
			t.Errorf("ResolveRelease(%q): %v", c.in, err)
			continue
		}
		if rel.Version != c.version || rel.Package != c.pkg || (rel.Substituted != "") != c.substituted || rel.Requested != c.in {
			t.Errorf("ResolveRelease(%q) = %+v, want version %s package %s substituted %v", c.in, rel, c.version, c.pkg, c.substituted)
		}
	}
}

func TestResolveReleaseUnknown(t *testing.T) {
	for _, in := range []string{"", "garbage", "0.4.99", "v0.4.99+commit.12345678", "0.9.0", "1.0.0", "0.8", "0.8.7.1", "v0.4.99-nightly.2018.1.1+commit.aaaaaaaa", "0.5.18", "99999999999999999999.0.0"} {
		_, err := ResolveRelease(in)
		if !errors.Is(err, ErrUnknownVersion) {
			t.Errorf("ResolveRelease(%q) = %v, want ErrUnknownVersion", in, err)
		}
	}
}

func TestReleasesList(t *testing.T) {
	rs := Releases()
	if rs[0] != "0.4.9" || rs[len(rs)-1] != "0.8.30" {
		t.Fatalf("releases span %s..%s", rs[0], rs[len(rs)-1])
	}
	// 18 (0.4.9-0.4.26) + 18 + 13 + 7 + 31
	if len(rs) != 87 {
		t.Fatalf("%d releases, want 87", len(rs))
	}
}

func TestPragmaRelease(t *testing.T) {
	cases := map[string]string{
		"pragma solidity ^0.4.18;":                                         "0.4.26",
		"pragma solidity 0.4.24;":                                          "0.4.24",
		"pragma solidity =0.5.2;":                                          "0.5.2",
		"pragma solidity >=0.4.22 <0.6.0;":                                 "0.5.17",
		"pragma solidity >= 0.4.22 < 0.6.0;":                               "0.5.17",
		"pragma solidity ~0.4.24;":                                         "0.4.26",
		"pragma solidity ^0.8.0;":                                          "0.8.30",
		"pragma solidity >0.4.23 <0.5.0 || ^0.6.0;":                        "0.6.12",
		"pragma solidity 0.5.0 - 0.5.9;":                                   "0.5.9",
		"pragma solidity ^0.6;":                                            "0.6.12",
		"pragma solidity 0.7;":                                             "0.7.6",
		"pragma solidity >0.7;":                                            "0.8.30",
		"pragma solidity <=0.4.21;":                                        "0.4.21",
		"pragma solidity 0.8.x;":                                           "0.8.30",
		"pragma solidity >0.8.29;":                                         "0.8.30",
		"// pragma solidity ^0.8.0;\npragma solidity ^0.5.0;":              "0.5.17",
		"/* pragma solidity ^0.8.0; */ pragma solidity ^0.5.0;":            "0.5.17",
		"pragma solidity ^0.4.11;\ncontract A{}\npragma solidity ^0.4.24;": "0.4.26",
		"pragma solidity >=0.4.0;\npragma solidity <0.4.20;":               "0.4.19",
		"string s = \"// not a comment\"; pragma solidity 0.6.1;":          "0.6.1",
	}
	for src, want := range cases {
		got, err := PragmaRelease(src)
		if err != nil || got != want {
			t.Errorf("PragmaRelease(%q) = %q, %v; want %q", src, got, err, want)
		}
	}
}

func TestPragmaReleaseErrors(t *testing.T) {
	if _, err := PragmaRelease("contract A {}"); !errors.Is(err, ErrNoPragma) {
		t.Errorf("no pragma: %v", err)
	}
	if _, err := PragmaRelease("pragma solidity ^0.9.0;"); !errors.Is(err, ErrUnknownVersion) {
		t.Errorf("unsatisfiable pragma: %v", err)
	}
	if _, err := PragmaRelease("pragma solidity ^0.4.x.y.z;"); err == nil {
		t.Error("bad pragma accepted")
	}
	if _, err := PragmaRelease("pragma solidity >=0.4.22; pragma solidity <0.4.22;"); !errors.Is(err, ErrUnknownVersion) {
		t.Errorf("contradictory pragmas: %v", err)
	}
}

func TestRefineAncient(t *testing.T) {
	rel, _ := ResolveRelease("v0.4.4+commit.4633f3de")
	capped := refineAncient(rel, map[string]string{"a.sol": "pragma solidity >=0.4.0 <0.4.20;"})
	if capped.Version != "0.4.19" || capped.Package != "solc@0.4.19" || capped.Substituted == "" {
		t.Fatalf("capped pragma: %+v", capped)
	}
	open := refineAncient(rel, map[string]string{"a.sol": "pragma solidity ^0.4.4;"})
	if open.Version != "0.4.26" {
		t.Fatalf("open pragma: %+v", open)
	}
	modern, _ := ResolveRelease("0.4.24")
	if got := refineAncient(modern, map[string]string{"a.sol": "pragma solidity >=0.4.0 <0.4.20;"}); got != modern {
		t.Fatalf("a loadable release was changed: %+v", got)
	}
}
