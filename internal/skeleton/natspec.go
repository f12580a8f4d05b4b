package skeleton

import (
	"strings"
	"unicode"

	"github.com/solbehave/solbehave/internal/soltext"
)

// Doc is a function's NatSpec text as a model wrote it; empty parts fall
// back to the template.
type Doc struct {
	Notice  string            `json:"notice"`
	Params  map[string]string `json:"params,omitempty"`
	Returns []string          `json:"returns,omitempty"`
}

// documented says which functions get NatSpec: the public and external ones
// (the paper's "every public function"; external ones are public API too).
func documented(f Function) bool { return f.Visibility == "public" || f.Visibility == "external" }

// writeNatSpec sets f's NatSpec lines and their source.
func writeNatSpec(f *Function, docs DocFunc) {
	f.NatSpecSource = "none"
	if !documented(*f) {
		return
	}
	var d *Doc
	if docs != nil {
		d = docs(*f)
	}
	f.NatSpec, f.NatSpecSource = natSpecLines(*f, d)
}

// natSpecLines writes @notice, one @param per named parameter and one
// @return per return value. solc checks that @param names exist and, from
// 0.7, that @return of a named return starts with its name; both hold here.
func natSpecLines(f Function, d *Doc) ([]string, string) {
	source := "template"
	notice := TemplateNotice(f)
	if d != nil && clean(d.Notice) != "" {
		notice, source = clean(d.Notice), "llm"
	}
	lines := []string{"@notice " + notice}
	for _, p := range f.Params {
		if p.Name == "" {
			continue
		}
		text := templateParam(p.Name, p.Type)
		if d != nil && clean(d.Params[p.Name]) != "" {
			text = clean(d.Params[p.Name])
		}
		lines = append(lines, "@param "+p.Name+" "+text)
	}
	for i, r := range f.Returns {
		text := templateReturn(r.Name, r.Type)
		if d != nil && i < len(d.Returns) && clean(d.Returns[i]) != "" {
			text = clean(d.Returns[i])
		}
		tag := "@return "
		if r.Name != "" {
			tag += r.Name + " "
			text = strings.TrimSpace(strings.TrimPrefix(text, r.Name+" "))
		}
		lines = append(lines, tag+text)
	}
	return lines, source
}

// clean makes model text safe inside `///`: one line, no tags, bounded.
func clean(s string) string {
	s = strings.Join(strings.Fields(strings.NewReplacer("@", "", "*/", "", "/*", "", "`", "'").Replace(s)), " ")
	if r := []rune(s); len(r) > 240 {
		s = string(r[:240])
	}
	return s
}

// TemplateNotice is the deterministic @notice of a function, from its name,
// kind and mutability.
func TemplateNotice(f Function) string {
	switch f.Kind {
	case "constructor":
		return "Sets up the contract when it is deployed."
	case "fallback":
		return "Handles calls that match no other function" + payableNote(f) + "."
	case "receive":
		return "Receives plain ether transfers."
	}
	s := sentence(words(f.Name))
	switch f.StateMutability {
	case "view", "pure":
		s += " (read-only)"
	case "payable":
		s += " (accepts ether)"
	}
	return s + "."
}

func payableNote(f Function) string {
	if f.StateMutability == "payable" {
		return ", accepting ether"
	}
	return ""
}

func templateParam(name, typ string) string {
	return "The " + strings.Join(words(name), " ") + " (" + canonicalType(typ) + ")."
}

func templateReturn(name, typ string) string {
	if name == "" {
		return "The " + canonicalType(typ) + " result."
	}
	return "The " + strings.Join(words(name), " ") + " (" + canonicalType(typ) + ")."
}

// words splits an identifier: "transferFrom" -> transfer, from; "_to" -> to.
func words(ident string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = nil
		}
	}
	rs := []rune(ident)
	for i, r := range rs {
		switch {
		case r == '_' || r == '$':
			flush()
		case unicode.IsUpper(r) && len(cur) > 0 && (!unicode.IsUpper(cur[len(cur)-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1])):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	if len(out) == 0 {
		return []string{"value"}
	}
	return out
}

func sentence(ws []string) string {
	s := strings.Join(ws, " ")
	r := []rune(s)
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}

// natSpecBlock renders lines as `///` comments ending where the function
// starts, indented like it.
func natSpecBlock(src string, cls []soltext.Class, at int, lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	ls := strings.LastIndexByte(src[:at], '\n') + 1
	indent, lead := "", ""
	for i := ls; i < at; i++ {
		switch {
		case cls[i] != soltext.Code: // a comment the skeleton deletes
		case src[i] == ' ' || src[i] == '\t':
			if lead == "" && strings.TrimSpace(src[ls:i]) == "" {
				indent += src[i : i+1]
			}
		default: // code before the function on its line
			indent, lead = "    ", "\n    "
		}
	}
	var b strings.Builder
	b.WriteString(lead)
	for _, l := range lines {
		b.WriteString("/// " + l + "\n" + indent)
	}
	return b.String()
}
