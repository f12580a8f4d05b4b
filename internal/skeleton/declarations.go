package skeleton

import (
	"fmt"
	"sort"
	"strings"
)

// Declaration is a contract, library or interface as the lexer reads it
// from source text that need not compile: what the crawl can know about a
// candidate without running a compiler (solc's `stopAfter: "parsing"`
// exists only from 0.7.3 and does not linearise).
type Declaration struct {
	Kind      string // contract, library, interface
	Name      string
	File      string
	Bases     []string // direct bases in declaration order (the last segment of a qualified name)
	Functions []DeclaredFunction
}

// DeclaredFunction is a function of a Declaration. Modifier definitions
// are not functions.
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

// Declarations lists the top-level contract, library and interface
// declarations of one file.
func Declarations(file, src string) []Declaration {
	toks := tokenize(src)
	var out []Declaration
	for i := 0; i < len(toks); {
		d, next, ok := declarationAt(toks, i)
		if ok {
			d.File = file
			out = append(out, d)
		}
		i = next
	}
	return out
}

// Lineage is every declaration of a multi-file source by name; a name
// defined in two files resolves to the later file in byte order, as solc's
// output does (source ids follow the sorted file names).
type Lineage map[string]Declaration

// NewLineage reads the declarations of every file.
func NewLineage(files map[string]string) Lineage {
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	l := Lineage{}
	for _, name := range names {
		for _, d := range Declarations(name, files[name]) {
			l[d.Name] = d
		}
	}
	return l
}

// maxChain bounds the contracts a linearisation may reach: real chains
// have tens (OpenZeppelin's largest, a few dozen); a hostile source with
// thousands would otherwise cost time quadratic in them.
const maxChain = 1000

// Linearize is target's C3 linearisation as Solidity defines it, most
// derived first; bases the sources do not define are left out. An
// inheritance graph solc could not linearise is an error.
func (l Lineage) Linearize(target string) ([]Declaration, error) {
	if n := l.reachable(target); n > maxChain {
		return nil, fmt.Errorf("contract %s inherits from %d contracts, more than %d", target, n, maxChain)
	}
	names, err := l.c3(target, map[string]bool{}, map[string][]string{})
	if err != nil {
		return nil, err
	}
	out := make([]Declaration, len(names))
	for i, n := range names {
		out[i] = l[n]
	}
	return out, nil
}

// reachable counts target and the contracts it inherits from (up to
// maxChain+1).
func (l Lineage) reachable(target string) int {
	seen := map[string]bool{target: true}
	queue := []string{target}
	for len(queue) > 0 && len(seen) <= maxChain {
		d := l[queue[0]]
		queue = queue[1:]
		for _, b := range d.Bases {
			if _, ok := l[b]; ok && !seen[b] {
				seen[b] = true
				queue = append(queue, b)
			}
		}
	}
	return len(seen)
}

func (l Lineage) c3(name string, visiting map[string]bool, done map[string][]string) ([]string, error) {
	if lin, ok := done[name]; ok {
		return lin, nil
	}
	d, ok := l[name]
	if !ok {
		return nil, fmt.Errorf("contract %s is not defined in the sources", name)
	}
	if visiting[name] {
		return nil, fmt.Errorf("contract %s inherits from itself", name)
	}
	visiting[name] = true
	defer delete(visiting, name)
	// Solidity lists bases from the most base-like to the most derived, so
	// the merge takes them right to left.
	var seqs [][]string
	var direct []string
	for i := len(d.Bases) - 1; i >= 0; i-- {
		b := d.Bases[i]
		if _, ok := l[b]; !ok {
			continue
		}
		lin, err := l.c3(b, visiting, done)
		if err != nil {
			return nil, err
		}
		seqs = append(seqs, lin)
		direct = append(direct, b)
	}
	merged, err := merge(append(seqs, direct))
	if err != nil {
		return nil, fmt.Errorf("contract %s: %w", name, err)
	}
	done[name] = append([]string{name}, merged...)
	return done[name], nil
}

// merge is C3's merge: repeatedly take the first head that is in no tail.
// tails counts each name's places after the head of a sequence, so a head
// is checked in constant time.
func merge(seqs [][]string) ([]string, error) {
	tails := map[string]int{}
	for _, s := range seqs {
		for k := 1; k < len(s); k++ {
			tails[s[k]]++
		}
	}
	var out []string
	for {
		head, left := "", false
		for _, s := range seqs {
			if len(s) == 0 {
				continue
			}
			left = true
			if tails[s[0]] == 0 {
				head = s[0]
				break
			}
		}
		if !left {
			return out, nil
		}
		if head == "" {
			return nil, fmt.Errorf("linearization of inheritance graph impossible")
		}
		out = append(out, head)
		for i, s := range seqs {
			if len(s) > 0 && s[0] == head {
				seqs[i] = s[1:]
				if len(s) > 1 {
					tails[s[1]]--
				}
			}
		}
	}
}

// ChainCount is the paper's size of target (§IV-A c, as the benchmark
// reads it): the functions with a body in target's linearised inheritance
// chain, the target's own and every inherited one, internal and private
// included, neither constructors nor view or pure. Libraries and
// interfaces are not part of the chain.
func ChainCount(files map[string]string, target string) (int, error) {
	chain, err := NewLineage(files).Linearize(target)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, d := range chain {
		if d.Kind != "contract" {
			continue
		}
		for _, f := range d.Functions {
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
	cls := classify(src)
	var out []token
	for i := 0; i < len(src); {
		switch {
		case cls[i] == str:
			j := i
			for j < len(src) && cls[j] == str {
				j++
			}
			out = append(out, token{`"`, i})
			i = j
		case cls[i] != code || isSpace(src[i]):
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

// declarationAt reads the top-level member starting at toks[i]; it returns
// the index just past it and, when the member is a contract, library or
// interface, its declaration.
func declarationAt(toks []token, i int) (Declaration, int, bool) {
	j := i
	if toks[j].text == "abstract" && j+1 < len(toks) {
		j++
	}
	kind := toks[j].text
	if (kind != "contract" && kind != "library" && kind != "interface") || j+1 >= len(toks) || !isIdentToken(toks[j+1]) {
		return Declaration{}, skipMember(toks, i), false
	}
	d := Declaration{Kind: kind, Name: toks[j+1].text}
	open := j + 2
	for open < len(toks) && toks[open].text != "{" && toks[open].text != ";" {
		open++
	}
	if open >= len(toks) || toks[open].text != "{" {
		return Declaration{}, open + 1, false
	}
	d.Bases = bases(toks[j+2 : open])
	end := closing(toks, open)
	for k := open + 1; k < end; {
		f, next, ok := functionAt(toks, k, end, d.Name)
		if ok {
			d.Functions = append(d.Functions, f)
		}
		k = next
	}
	return d, end + 1, true
}

// bases reads `is A, B(args), M.C` between a contract's name and its `{`.
func bases(toks []token) []string {
	if len(toks) == 0 || toks[0].text != "is" {
		return nil
	}
	var out []string
	name, depth := "", 0
	for _, t := range toks[1:] {
		switch {
		case t.text == "(":
			depth++
		case t.text == ")":
			depth--
		case depth == 0 && t.text == ",":
			out = appendName(out, name)
			name = ""
		case depth == 0 && isIdentToken(t):
			name = t.text // a qualified name ends with its last segment
		}
	}
	return appendName(out, name)
}

func appendName(names []string, name string) []string {
	if name == "" {
		return names
	}
	return append(names, name)
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
