package soltext

import "strings"

// DeclaredFunction is a function of a top-level definition as the lexer
// reads it, from source text that need not compile (what the crawl can know
// about a candidate without a compiler). Modifier definitions are not
// functions.
type DeclaredFunction struct {
	Kind       string // function, constructor, fallback, receive
	Name       string // "" for constructors, fallback and receive
	Mutability string // pure, view, payable, nonpayable (`constant` reads as view)
	HasBody    bool
}

// Nontrivial says whether the function counts for the paper's size: it has
// a body and is neither a constructor nor view or pure.
func (f DeclaredFunction) Nontrivial() bool {
	return f.HasBody && IsNontrivial(f.Kind, f.Mutability)
}

// IsNontrivial is the paper's non-trivial function (§IV-A c): neither a
// constructor nor view or pure.
func IsNontrivial(kind, mutability string) bool {
	return kind != "constructor" && mutability != "view" && mutability != "pure"
}

// Functions lists the functions d (a definition of src) declares.
func Functions(src string, d Definition) []DeclaredFunction {
	toks := tokenize(src[d.Start:d.End])
	open := 0
	for open < len(toks) && toks[open].text != "{" {
		open++
	}
	end := closing(toks, open)
	var out []DeclaredFunction
	for k := open + 1; k < end; {
		f, next, ok := functionAt(toks, k, end, d.Name)
		if ok {
			out = append(out, f)
		}
		k = next
	}
	return out
}

// ChainCount is the paper's size of target (§IV-A c, as the benchmark
// reads it), read by the lexer across every file: the functions with a
// body in target's linearised inheritance chain (Chain), the target's own
// and every inherited one, internal and private included, neither
// constructors nor view or pure. Libraries and interfaces are not part of
// the chain.
func ChainCount(files map[string]string, target string) (int, error) {
	chain, err := Chain(files, "", target)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, l := range chain {
		if l.Kind != "contract" {
			continue
		}
		for _, f := range Functions(files[l.File], l.Definition) {
			if f.Nontrivial() {
				n++
			}
		}
	}
	return n, nil
}

// token is one lexical token of code: an identifier or number, a string
// literal (text `"`), or one punctuation byte.
type token struct {
	text string
	pos  int
}

func tokenize(src string) []token {
	cls := Classify(src)
	var out []token
	for i := 0; i < len(src); {
		switch {
		case cls[i] == String:
			j := i
			for j < len(src) && cls[j] == String {
				j++
			}
			out = append(out, token{`"`, i})
			i = j
		case cls[i] != Code || isSpace(src[i]):
			i++
		case isIdent(src[i]):
			word, j := identAt(src, i)
			out = append(out, token{word, i})
			i = j
		default:
			out = append(out, token{src[i : i+1], i})
			i++
		}
	}
	return out
}

// functionAt reads the contract member starting at toks[i] (before end).
func functionAt(toks []token, i, end int, contract string) (DeclaredFunction, int, bool) {
	var f DeclaredFunction
	switch word := toks[i].text; {
	case word == "function" && i+1 < end && isIdentToken(toks[i+1]):
		f.Kind, f.Name = "function", toks[i+1].text
		if f.Name == contract || f.Name == "constructor" { // before 0.4.22 the constructor is named like the contract
			f.Kind, f.Name = "constructor", ""
		}
	case word == "function" && i+1 < end && toks[i+1].text == "(":
		f.Kind = "fallback" // before 0.6: the unnamed function
	case (word == "constructor" || word == "fallback" || word == "receive") && i+1 < end && toks[i+1].text == "(":
		f.Kind = word
	default:
		return f, skipMember(toks[:end], i), false
	}
	k := i + 1
	for k < end && toks[k].text != "(" {
		k++
	}
	k = closing(toks, k) + 1 // past the parameters
	f.Mutability = "nonpayable"
	for depth := 0; k < end; k++ {
		switch t := toks[k].text; {
		case t == "(":
			depth++
		case t == ")":
			depth--
		case depth > 0:
		case t == "view" || t == "constant":
			f.Mutability = "view"
		case t == "pure" || t == "payable":
			f.Mutability = t
		case t == "{":
			f.HasBody = true
			return f, closing(toks, k) + 1, true
		case t == ";":
			if f.Kind == "fallback" && f.Name == "" && toks[i].text == "function" {
				return f, k + 1, false // a function-typed state variable, not a fallback
			}
			return f, k + 1, true
		}
	}
	return f, end, true
}

// skipMember returns the index just past the member starting at toks[i]:
// past its `;`, or past a `{...}` block at its own level (a struct, an
// enum, a modifier).
func skipMember(toks []token, i int) int {
	depth := 0
	for k := i; k < len(toks); k++ {
		switch toks[k].text {
		case "(", "[":
			depth++
		case ")", "]":
			depth--
		case "{":
			if depth == 0 {
				return closing(toks, k) + 1
			}
			depth++
		case "}":
			depth--
		case ";":
			if depth == 0 {
				return k + 1
			}
		}
	}
	return len(toks)
}

// closing is the index of the token closing the bracket at toks[open]
// (len(toks)-1 when it is never closed).
func closing(toks []token, open int) int {
	if open >= len(toks) {
		return len(toks) - 1
	}
	o := toks[open].text
	c := map[string]string{"(": ")", "{": "}", "[": "]"}[o]
	depth := 0
	for k := open; k < len(toks); k++ {
		switch toks[k].text {
		case o:
			depth++
		case c:
			depth--
			if depth == 0 {
				return k
			}
		}
	}
	return len(toks) - 1
}

func isIdentToken(t token) bool {
	return t.text != "" && isIdent(t.text[0]) && !strings.ContainsAny(t.text[:1], "0123456789")
}
