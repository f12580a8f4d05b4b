package soltext_test

import (
	"strings"
	"testing"

	"github.com/solbehave/solbehave/internal/soltext"
)

func TestStripComments(t *testing.T) {
	got := soltext.StripComments("// SPDX-License-Identifier: MIT\n// gone\nuint a; // tail\nuint/*x*/b = 1; /* z */\n  /* whole\n line */\nstring s = \"//keep /*keep*/\";\n")
	want := "// SPDX-License-Identifier: MIT\nuint a;\nuint b = 1;\nstring s = \"//keep /*keep*/\";\n"
	if got != want {
		t.Fatalf("got\n%q\nwant\n%q", got, want)
	}
}

func TestDefinitionsAndBraces(t *testing.T) {
	src := "pragma solidity ^0.8.0;\n// contract Fake {}\nlibrary L { function f() internal {} }\nabstract contract A { string s = \"}\"; }\ninterface I { function g() external; }\ncontract C is A { function h() public { if (true) { } } }\n"
	defs := soltext.Definitions(src)
	var names []string
	for _, d := range defs {
		names = append(names, d.Kind+":"+d.Name)
	}
	if strings.Join(names, ",") != "library:L,contract:A,interface:I,contract:C" {
		t.Fatalf("definitions %v", names)
	}
	c, ok := soltext.FindContract(src, "C")
	if !ok || !strings.HasPrefix(src[c.Start:], "contract C") || !strings.HasSuffix(src[:c.End], "} } }") {
		t.Fatalf("FindContract C: %+v %v", c, ok)
	}
	a, _ := soltext.FindContract(src, "A")
	if !strings.HasPrefix(src[a.Start:], "abstract contract A") {
		t.Fatalf("abstract contract starts at %q", src[a.Start:a.Start+10])
	}
	if _, ok := soltext.MatchBrace("{ \"}\" ", 0); ok {
		t.Fatal("an unclosed brace matched")
	}
}

func TestDefinitionBases(t *testing.T) {
	src := "contract A {}\ncontract B is A /* is X */ {}\nabstract contract C is\n  B,\n  Lib.D(1, f(2, 3)), E {}\ncontract Island {}\n"
	var got []string
	for _, d := range soltext.Definitions(src) {
		got = append(got, d.Name+"<"+strings.Join(d.Bases, "+"))
	}
	if strings.Join(got, " ") != "A< B<A C<B+D+E Island<" {
		t.Fatalf("bases %v", got)
	}
}

func TestBlankCommentsKeepsCodeStringsAndLines(t *testing.T) {
	src := "pragma solidity ^0.4.24; // <yes> <report> REENTRANCY\n" +
		"/* block\r\n   comment */ contract A {\n" +
		"  string s = \"http://x // not a comment\"; string t = '/* nor this */';\n" +
		"  // <yes> <report> ARITHMETIC\n}\n"
	got := soltext.BlankComments(src)
	if len(got) != len(src) {
		t.Fatalf("length changed: %d -> %d", len(src), len(got))
	}
	if strings.Count(got, "\n") != strings.Count(src, "\n") {
		t.Fatalf("line breaks changed:\n%s", got)
	}
	for _, gone := range []string{"<yes>", "REENTRANCY", "ARITHMETIC", "block", "comment */"} {
		if strings.Contains(got, gone) {
			t.Errorf("%q survived:\n%s", gone, got)
		}
	}
	for _, kept := range []string{"pragma solidity ^0.4.24;", "contract A {", `"http://x // not a comment"`, `'/* nor this */'`} {
		if !strings.Contains(got, kept) {
			t.Errorf("%q was stripped:\n%s", kept, got)
		}
	}
}

func TestBlankCommentsUnterminated(t *testing.T) {
	if got := soltext.BlankComments("a /* open"); strings.TrimSpace(got) != "a" {
		t.Fatalf("unterminated block comment: %q", got)
	}
	if got := soltext.BlankComments("x = \"open\ny"); got != "x = \"open\ny" {
		t.Fatalf("unterminated string must end at the line: %q", got)
	}
}
