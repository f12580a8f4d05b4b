package soltext

import (
	"sort"
	"strings"
)

// Class says what a byte of a source text belongs to.
type Class byte

// The classes of Classify.
const (
	Code Class = iota
	LineComment
	BlockComment
	String
)

// Classify labels each byte of src as code, comment or string literal.
// Unterminated comments and strings run to the end of the text (a string to
// the end of its line).
func Classify(src string) []Class {
	cls, _ := scan(src)
	return cls
}

// scan classifies src and returns its comment ranges in order.
func scan(src string) ([]Class, []Span) {
	cls := make([]Class, len(src))
	var spans []Span
	for i := 0; i < len(src); {
		switch {
		case strings.HasPrefix(src[i:], "//"):
			end := len(src)
			if j := strings.IndexByte(src[i:], '\n'); j >= 0 {
				end = i + j
			}
			fill(cls, i, end, LineComment)
			spans = append(spans, Span{i, end})
			i = end
		case strings.HasPrefix(src[i:], "/*"):
			end := len(src)
			if j := strings.Index(src[i+2:], "*/"); j >= 0 {
				end = i + 2 + j + 2
			}
			fill(cls, i, end, BlockComment)
			spans = append(spans, Span{i, end})
			i = end
		case src[i] == '"' || src[i] == '\'':
			end := stringEnd(src, i)
			fill(cls, i, end, String)
			i = end
		default:
			i++
		}
	}
	return cls, spans
}

func fill(cls []Class, from, to int, c Class) {
	for k := from; k < to; k++ {
		cls[k] = c
	}
}

// stringEnd returns the offset just past the literal opened at i.
func stringEnd(src string, i int) int {
	q := src[i]
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case q:
			return j + 1
		case '\n':
			return j // unterminated: stop at the line's end
		}
	}
	return len(src)
}

// Span is the byte range [Start, End) of a text.
type Span struct{ Start, End int }

// comments returns the comment ranges of src in order.
func comments(src string) []Span {
	_, spans := scan(src)
	return spans
}

// Edit replaces src[Start:End] with Text.
type Edit struct {
	Start, End int
	Text       string
}

// CommentEdits deletes every comment but the SPDX line, taking whole lines
// when a comment is alone on its lines and leaving one space where a block
// comment separated two tokens.
func CommentEdits(src string) []Edit {
	var out []Edit
	for _, c := range comments(src) {
		if strings.HasPrefix(src[c.Start:], "// SPDX-License-Identifier:") {
			continue
		}
		out = append(out, commentEdit(src, c))
	}
	return mergeEdits(out)
}

func commentEdit(src string, c Span) Edit {
	ls := strings.LastIndexByte(src[:c.Start], '\n') + 1
	le := len(src)
	if k := strings.IndexByte(src[c.End:], '\n'); k >= 0 {
		le = c.End + k
	}
	blankBefore := strings.TrimSpace(src[ls:c.Start]) == ""
	blankAfter := strings.TrimSpace(src[c.End:le]) == ""
	switch {
	case blankBefore && blankAfter:
		end := le
		if end < len(src) {
			end++ // the newline too
		}
		return Edit{ls, end, ""}
	case blankAfter:
		return Edit{trimLeftSpaces(src, c.Start, ls), le, ""}
	case blankBefore:
		return Edit{c.Start, skipSpaces(src, c.End, le), ""}
	case c.Start > 0 && isSpace(src[c.Start-1]) || c.End < len(src) && isSpace(src[c.End]):
		return Edit{c.Start, c.End, ""}
	default:
		return Edit{c.Start, c.End, " "} // keep two tokens apart
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func trimLeftSpaces(src string, i, floor int) int {
	for i > floor && (src[i-1] == ' ' || src[i-1] == '\t' || src[i-1] == '\r') {
		i--
	}
	return i
}

func skipSpaces(src string, i, ceil int) int {
	for i < ceil && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	return i
}

// mergeEdits sorts edits and merges overlapping deletions (two comments on
// one line both claiming the spaces between them).
func mergeEdits(es []Edit) []Edit {
	sort.SliceStable(es, func(i, j int) bool { return es[i].Start < es[j].Start })
	var out []Edit
	for _, e := range es {
		if n := len(out); n > 0 && e.Start < out[n-1].End {
			out[n-1].End = max(out[n-1].End, e.End)
			continue
		}
		out = append(out, e)
	}
	return out
}

// Apply applies sorted, non-overlapping edits.
func Apply(src string, es []Edit) string {
	var b strings.Builder
	pos := 0
	for _, e := range es {
		b.WriteString(src[pos:e.Start])
		b.WriteString(e.Text)
		pos = e.End
	}
	b.WriteString(src[pos:])
	return b.String()
}

// StripComments removes every comment of a Solidity text (except the SPDX
// licence line); string literals are left alone.
func StripComments(src string) string { return Apply(src, CommentEdits(src)) }

// BlankComments replaces every comment byte but line breaks with a space,
// so a search over the result finds no word inside a comment and its
// offsets and line numbers are still those of src.
func BlankComments(src string) string {
	cls := Classify(src)
	b := []byte(src)
	for i, c := range cls {
		if (c == LineComment || c == BlockComment) && b[i] != '\n' && b[i] != '\r' {
			b[i] = ' '
		}
	}
	return string(b)
}

// MatchBrace returns the offset of the `}` closing the `{` at open,
// skipping strings and comments.
func MatchBrace(src string, open int) (int, bool) {
	if open < 0 || open >= len(src) || src[open] != '{' {
		return 0, false
	}
	return matchBrace(src, Classify(src), open)
}

// matchBrace is MatchBrace over a text already classified.
func matchBrace(src string, cls []Class, open int) (int, bool) {
	if open < 0 || open >= len(src) || src[open] != '{' {
		return 0, false
	}
	depth := 0
	for i := open; i < len(src); i++ {
		if cls[i] != Code {
			continue
		}
		switch src[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return i, true
			}
		}
	}
	return 0, false
}

// Definition is a top-level contract, library or interface found by the lexer.
type Definition struct {
	Kind, Name string
	Bases      []string // the names after `is`, in declaration order (a qualified `M.Base` gives Base)
	Start, End int      // from the keyword (or `abstract`) to just past the closing brace
}

// Definitions lists the top-level contract, library and interface
// definitions of a text that need not compile (a model's reply, an imported
// sample).
func Definitions(src string) []Definition {
	cls := Classify(src)
	var out []Definition
	depth := 0
	for i := 0; i < len(src); i++ {
		if cls[i] != Code {
			continue
		}
		switch src[i] {
		case '{':
			depth++
			continue
		case '}':
			depth--
			continue
		}
		if depth != 0 || !wordStart(src, i) {
			continue
		}
		if d, ok := definitionAt(src, cls, i); ok {
			out = append(out, d)
			i = d.End - 1
		}
	}
	return out
}

func wordStart(src string, i int) bool { return i == 0 || !isIdent(src[i-1]) }

func isIdent(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func definitionAt(src string, cls []Class, i int) (Definition, bool) {
	start := i
	word, j := identAt(src, i)
	if word == "abstract" {
		word, j = identAt(src, skipBlank(src, cls, j))
	}
	if word != "contract" && word != "library" && word != "interface" {
		return Definition{}, false
	}
	name, k := identAt(src, skipBlank(src, cls, j))
	if name == "" {
		return Definition{}, false
	}
	open := k
	for open < len(src) && (cls[open] != Code || src[open] != '{') {
		if cls[open] == Code && src[open] == ';' {
			return Definition{}, false
		}
		open++
	}
	end, ok := matchBrace(src, cls, open)
	if !ok {
		return Definition{}, false
	}
	return Definition{Kind: word, Name: name, Bases: baseNames(src, cls, k, open), Start: start, End: end + 1}, true
}

// baseNames reads the inheritance list `is A, B(args), M.C` of a header
// (src[from:to], between the name and the body's `{`).
func baseNames(src string, cls []Class, from, to int) []string {
	var header strings.Builder
	for i := from; i < to; i++ {
		if cls[i] == Code {
			header.WriteByte(src[i])
		}
	}
	list, ok := strings.CutPrefix(strings.TrimSpace(header.String()), "is")
	if !ok || list == "" || isIdent(list[0]) {
		return nil
	}
	var out []string
	depth, item := 0, strings.Builder{}
	flush := func() {
		name := strings.TrimSpace(item.String())
		if i := strings.LastIndexByte(name, '.'); i >= 0 {
			name = strings.TrimSpace(name[i+1:])
		}
		if name != "" {
			out = append(out, name)
		}
		item.Reset()
	}
	for i := 0; i < len(list); i++ {
		switch c := list[i]; {
		case c == '(':
			depth++
		case c == ')':
			depth--
		case c == ',' && depth == 0:
			flush()
		case depth == 0:
			item.WriteByte(c)
		}
	}
	flush()
	return out
}

func identAt(src string, i int) (string, int) {
	j := i
	for j < len(src) && isIdent(src[j]) {
		j++
	}
	return src[i:j], j
}

func skipBlank(src string, cls []Class, i int) int {
	for i < len(src) && (cls[i] != Code || src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r') {
		i++
	}
	return i
}

// FindContract locates the top-level definition of name.
func FindContract(src, name string) (Definition, bool) {
	for _, d := range Definitions(src) {
		if d.Name == name {
			return d, true
		}
	}
	return Definition{}, false
}
