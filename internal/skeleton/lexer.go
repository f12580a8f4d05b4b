package skeleton

import (
	"sort"
	"strings"
)

// byte classes of a source text
const (
	code byte = iota
	lineComment
	blockComment
	str
)

// classify labels each byte of src as code, comment or string literal.
// Unterminated comments and strings run to the end of the text (a string to
// the end of its line).
func classify(src string) []byte {
	cls, _ := scan(src)
	return cls
}

// scan classifies src and returns its comment ranges in order.
func scan(src string) ([]byte, []span) {
	cls := make([]byte, len(src))
	var spans []span
	for i := 0; i < len(src); {
		switch {
		case strings.HasPrefix(src[i:], "//"):
			end := len(src)
			if j := strings.IndexByte(src[i:], '\n'); j >= 0 {
				end = i + j
			}
			fill(cls, i, end, lineComment)
			spans = append(spans, span{i, end})
			i = end
		case strings.HasPrefix(src[i:], "/*"):
			end := len(src)
			if j := strings.Index(src[i+2:], "*/"); j >= 0 {
				end = i + 2 + j + 2
			}
			fill(cls, i, end, blockComment)
			spans = append(spans, span{i, end})
			i = end
		case src[i] == '"' || src[i] == '\'':
			end := stringEnd(src, i)
			fill(cls, i, end, str)
			i = end
		default:
			i++
		}
	}
	return cls, spans
}

func fill(cls []byte, from, to int, c byte) {
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

type span struct{ start, end int }

// comments returns the comment ranges of src in order.
func comments(src string) []span {
	_, spans := scan(src)
	return spans
}

// edit replaces src[start:end] with text.
type edit struct {
	start, end int
	text       string
}

// commentEdits deletes every comment but the SPDX line, taking whole lines
// when a comment is alone on its lines and leaving one space where a block
// comment separated two tokens.
func commentEdits(src string) []edit {
	var out []edit
	for _, c := range comments(src) {
		if strings.HasPrefix(src[c.start:], "// SPDX-License-Identifier:") {
			continue
		}
		out = append(out, commentEdit(src, c))
	}
	return mergeEdits(out)
}

func commentEdit(src string, c span) edit {
	ls := strings.LastIndexByte(src[:c.start], '\n') + 1
	le := len(src)
	if k := strings.IndexByte(src[c.end:], '\n'); k >= 0 {
		le = c.end + k
	}
	blankBefore := strings.TrimSpace(src[ls:c.start]) == ""
	blankAfter := strings.TrimSpace(src[c.end:le]) == ""
	switch {
	case blankBefore && blankAfter:
		end := le
		if end < len(src) {
			end++ // the newline too
		}
		return edit{ls, end, ""}
	case blankAfter:
		return edit{trimLeftSpaces(src, c.start, ls), le, ""}
	case blankBefore:
		return edit{c.start, skipSpaces(src, c.end, le), ""}
	case c.start > 0 && isSpace(src[c.start-1]) || c.end < len(src) && isSpace(src[c.end]):
		return edit{c.start, c.end, ""}
	default:
		return edit{c.start, c.end, " "} // keep two tokens apart
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
func mergeEdits(es []edit) []edit {
	sort.SliceStable(es, func(i, j int) bool { return es[i].start < es[j].start })
	var out []edit
	for _, e := range es {
		if n := len(out); n > 0 && e.start < out[n-1].end {
			out[n-1].end = max(out[n-1].end, e.end)
			continue
		}
		out = append(out, e)
	}
	return out
}

// apply applies sorted, non-overlapping edits.
func apply(src string, es []edit) string {
	var b strings.Builder
	pos := 0
	for _, e := range es {
		b.WriteString(src[pos:e.start])
		b.WriteString(e.text)
		pos = e.end
	}
	b.WriteString(src[pos:])
	return b.String()
}

// StripComments removes every comment of a Solidity text (except the SPDX
// licence line); string literals are left alone.
func StripComments(src string) string { return apply(src, commentEdits(src)) }

// BlankComments replaces every comment byte but newlines with a space, so
// a search over the result finds no word inside a comment and its offsets
// are still those of src.
func BlankComments(src string) string {
	cls := classify(src)
	b := []byte(src)
	for i, c := range cls {
		if (c == lineComment || c == blockComment) && b[i] != '\n' {
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
	return matchBrace(src, classify(src), open)
}

// matchBrace is MatchBrace over a text already classified.
func matchBrace(src string, cls []byte, open int) (int, bool) {
	if open < 0 || open >= len(src) || src[open] != '{' {
		return 0, false
	}
	depth := 0
	for i := open; i < len(src); i++ {
		if cls[i] != code {
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
	cls := classify(src)
	var out []Definition
	depth := 0
	for i := 0; i < len(src); i++ {
		if cls[i] != code {
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

func definitionAt(src string, cls []byte, i int) (Definition, bool) {
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
	for open < len(src) && (cls[open] != code || src[open] != '{') {
		if cls[open] == code && src[open] == ';' {
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
func baseNames(src string, cls []byte, from, to int) []string {
	var header strings.Builder
	for i := from; i < to; i++ {
		if cls[i] == code {
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

func skipBlank(src string, cls []byte, i int) int {
	for i < len(src) && (cls[i] != code || src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r') {
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
