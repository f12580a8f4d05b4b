package regen

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/solbehave/solbehave/internal/skeleton"
	"github.com/solbehave/solbehave/internal/soltext"
)

var fenceRe = regexp.MustCompile("(?m)^[ \t]*(```+|~~~+)[ \t]*([A-Za-z0-9_+-]*)[^\n]*$")

// codeBlocks returns the fenced blocks of a reply; an unclosed last fence
// (a reply cut at the token limit) runs to the end.
func codeBlocks(reply string) []string {
	locs := fenceRe.FindAllStringSubmatchIndex(reply, -1)
	var out []string
	for i := 0; i < len(locs); i += 2 {
		start := locs[i][1] + 1
		if start > len(reply) {
			start = len(reply)
		}
		if i+1 < len(locs) {
			out = append(out, reply[start:locs[i+1][0]])
		} else {
			out = append(out, reply[start:])
		}
	}
	return out
}

// ExtractCode returns the code of a reply: the fenced block that contains
// want (or else the longest block), or the whole reply when it has no fence.
func ExtractCode(reply, want string) string {
	blocks := codeBlocks(reply)
	if len(blocks) == 0 {
		return strings.TrimSpace(reply)
	}
	best := ""
	for _, b := range blocks {
		if want != "" && strings.Contains(b, want) {
			return strings.TrimSpace(b)
		}
		if len(b) > len(best) {
			best = b
		}
	}
	return strings.TrimSpace(best)
}

// ErrNoCode says a reply held nothing usable.
var ErrNoCode = errors.New("no code in the reply")

// ExtractBody finds the body of function f in a reply: from a whole
// function definition (fenced or not, with prose around it), or a bare body
// (with or without its braces). The result is a `{...}` block.
func ExtractBody(reply string, f skeleton.Function, contract string) (string, error) {
	code := ExtractCode(reply, headWord(f))
	if code == "" {
		return "", ErrNoCode
	}
	if body, ok := bodyOfDefinition(code, f, contract); ok {
		return checkBody(body)
	}
	if strings.HasPrefix(code, "{") {
		if end, ok := soltext.MatchBrace(code, 0); ok && strings.TrimSpace(code[end+1:]) == "" {
			return checkBody(code)
		}
	}
	stmts := trimProse(code)
	if stmts == "" {
		return "", ErrNoCode
	}
	return checkBody("{\n" + stmts + "\n    }")
}

func checkBody(body string) (string, error) {
	end, ok := soltext.MatchBrace(body, 0)
	if !ok || end != len(body)-1 {
		return "", errors.New("the reply's braces do not balance")
	}
	inner := strings.TrimSpace(body[1:end])
	if (strings.Contains(inner, "TODO") || strings.Contains(inner, "IMPLEMENT")) && len(inner) < 24 {
		return "", errors.New("the reply left the body as a TODO")
	}
	return body, nil
}

// headWord is what a definition of f starts with.
func headWord(f skeleton.Function) string {
	switch f.Kind {
	case "constructor", "fallback", "receive":
		return f.Kind
	}
	return "function " + f.Name
}

// bodyOfDefinition finds f's definition in code and returns its body.
// Overloads are told apart by their parameter count.
func bodyOfDefinition(code string, f skeleton.Function, contract string) (string, bool) {
	var heads []string
	switch f.Kind {
	case "constructor":
		heads = []string{"constructor", "function " + contract}
	case "fallback":
		heads = []string{"fallback", "function"}
	case "receive":
		heads = []string{"receive"}
	default:
		heads = []string{"function " + f.Name}
	}
	blank := soltext.BlankComments(code) // no head is found inside a comment
	var fallback string
	for _, head := range heads {
		for _, at := range wordIndexes(blank, head) {
			params, open, ok := definitionAt(blank, at+len(head))
			if !ok {
				continue
			}
			end, ok := soltext.MatchBrace(code, open)
			if !ok {
				continue
			}
			body := code[open : end+1]
			if params == len(f.Params) {
				return body, true
			}
			if fallback == "" {
				fallback = body
			}
		}
	}
	return fallback, fallback != ""
}

// wordIndexes finds head in code (comment-free) at word boundaries.
func wordIndexes(code, head string) []int {
	var out []int
	for i := 0; ; {
		j := strings.Index(code[i:], head)
		if j < 0 {
			return out
		}
		at := i + j
		end := at + len(head)
		if (at == 0 || !isIdent(code[at-1])) && (end >= len(code) || !isIdent(code[end])) {
			out = append(out, at)
		}
		i = at + 1
	}
}

// definitionAt reads `(params) ... {` after a head (for an old fallback,
// `function` must be followed directly by `(`). It returns the parameter
// count and the body's `{` offset.
func definitionAt(code string, i int) (int, int, bool) {
	for i < len(code) && isSpace(code[i]) {
		i++
	}
	if i >= len(code) || code[i] != '(' {
		return 0, 0, false
	}
	close := matchParen(code, i)
	if close < 0 {
		return 0, 0, false
	}
	params := countParams(code[i+1 : close])
	depth := 0
	for j := close + 1; j < len(code); j++ {
		switch code[j] {
		case '(':
			depth++
		case ')':
			depth--
		case ';':
			if depth == 0 {
				return 0, 0, false // a declaration without a body
			}
		case '{':
			if depth == 0 {
				return params, j, true
			}
		}
	}
	return 0, 0, false
}

func matchParen(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

func countParams(list string) int {
	if strings.TrimSpace(list) == "" {
		return 0
	}
	n, depth := 1, 0
	for _, c := range list {
		switch c {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case ',':
			if depth == 0 {
				n++
			}
		}
	}
	return n
}

// trimProse drops the leading and trailing lines that do not look like code.
func trimProse(code string) string {
	lines := strings.Split(code, "\n")
	isCode := func(l string) bool {
		t := strings.TrimSpace(l)
		if t == "" {
			return false
		}
		last := t[len(t)-1]
		return strings.ContainsRune(";{},(", rune(last)) || strings.HasPrefix(t, "}") || strings.HasPrefix(t, "//") ||
			strings.HasPrefix(t, "/*") || strings.HasPrefix(t, "*")
	}
	lo, hi := 0, len(lines)
	for lo < hi && !isCode(lines[lo]) {
		lo++
	}
	for hi > lo && !isCode(lines[hi-1]) {
		hi--
	}
	return strings.Join(lines[lo:hi], "\n")
}

func isIdent(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// SampleCode is the code of a reply or imported sample: every fenced block,
// in order, or the whole text when it has no fence. Prose between blocks
// never reaches the merge, whose definitions come only from this text.
func SampleCode(reply string) string {
	blocks := codeBlocks(reply)
	if len(blocks) == 0 {
		return dropLeadingProse(reply)
	}
	return strings.Join(blocks, "\n")
}

var codeStart = regexp.MustCompile(`(?m)^[ \t]*(//|/\*|pragma\b|import\b|abstract\b|contract\b|library\b|interface\b)`)

// dropLeadingProse cuts an unfenced sample's text before its first line of
// code, so an apostrophe in an introduction ("Here's the code:") is not
// read as the start of a string.
func dropLeadingProse(text string) string {
	if loc := codeStart.FindStringIndex(text); loc != nil {
		return text[loc[0]:]
	}
	return text
}

// MergeDefinitions merges every contract, library and interface the code
// defines into base, by name: each replaces base's definition of that name
// in place, the rest of base left as it was (MergeFiles over one file).
func MergeDefinitions(base, code string) (string, error) {
	out, err := MergeFiles(map[string]string{"": base}, "", code)
	return out[""], err
}

// MergeFiles merges every contract, library and interface the code defines
// into the file that defines that name (the target's file first, then the
// others in path order): each replaces that definition in place, the rest
// of every file left as it was. The code's pragma, SPDX line, imports and
// prose never override the files' (only definitions are taken), so the
// original's compiler (and its substitution) and import graph compile the
// result. A definition no file has is appended after the target file's
// last one (a helper the code relies on). It fails, naming what the code
// defines, when the code defines none of the files' contracts.
func MergeFiles(files map[string]string, target, code string) (map[string]string, error) {
	where := definitionFiles(files, target)
	edits := map[string][]skeleton.Edit{}
	var extra, defined []string
	seen := map[string]bool{}
	for _, d := range soltext.Definitions(code) {
		if seen[d.Name] {
			continue // a name defined twice: the first definition counts
		}
		seen[d.Name] = true
		defined = append(defined, d.Kind+" "+d.Name)
		if old, ok := where[d.Name]; ok {
			edits[old.File] = append(edits[old.File], skeleton.Edit{Start: old.Start, End: old.End, Text: code[d.Start:d.End]})
		} else {
			extra = append(extra, code[d.Start:d.End])
		}
	}
	if len(edits) == 0 {
		if len(defined) == 0 {
			return nil, fmt.Errorf("the sample defines no contract, library or interface")
		}
		return nil, fmt.Errorf("the sample defines no contract of the file (it defines %s)", strings.Join(defined, ", "))
	}
	out := make(map[string]string, len(files))
	for name, text := range files {
		out[name] = applyEdits(text, edits[name])
	}
	if len(extra) > 0 {
		out[target] = strings.TrimRight(out[target], "\n") + "\n\n" + strings.Join(extra, "\n\n") + "\n"
	}
	return out, nil
}

// definitionFiles maps each name defined in files to its definition: the
// target file's first, then the other files' in path order.
func definitionFiles(files map[string]string, target string) map[string]soltext.Located {
	names := make([]string, 0, len(files))
	for n := range files {
		if n != target {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	if _, ok := files[target]; ok {
		names = append([]string{target}, names...)
	}
	out := map[string]soltext.Located{}
	for _, n := range names {
		for _, d := range soltext.Definitions(files[n]) {
			if _, dup := out[d.Name]; !dup {
				out[d.Name] = soltext.Located{File: n, Definition: d}
			}
		}
	}
	return out
}

// applyEdits applies non-overlapping edits, last first so offsets hold.
func applyEdits(text string, edits []skeleton.Edit) string {
	sort.Slice(edits, func(i, j int) bool { return edits[i].Start > edits[j].Start })
	for _, e := range edits {
		text = text[:e.Start] + e.Text + text[e.End:]
	}
	return text
}
