package vuln

import (
	"strings"
	"testing"
)

func TestStripCommentsKeepsCodeStringsAndLines(t *testing.T) {
	src := "pragma solidity ^0.4.24; // <yes> <report> REENTRANCY\n" +
		"/* block\n   comment */ contract A {\n" +
		"  string s = \"http://x // not a comment\"; string t = '/* nor this */';\n" +
		"  // <yes> <report> ARITHMETIC\n}\n"
	got := StripComments(src)
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

func TestStripCommentsUnterminated(t *testing.T) {
	if got := StripComments("a /* open"); strings.TrimSpace(got) != "a" {
		t.Fatalf("unterminated block comment: %q", got)
	}
	if got := StripComments("x = \"open\ny"); got != "x = \"open\ny" {
		t.Fatalf("unterminated string must end at the line: %q", got)
	}
}
