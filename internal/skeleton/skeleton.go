package skeleton

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/solbehave/solbehave/internal/solast"
)

// Placeholder marks a body not written yet.
const Placeholder = "{ /* TODO */ }"

// Regeneration scopes (--regenerate).
const (
	// ScopeChain stubs every function with a body in the target's
	// inheritance chain: the target and every base it inherits from,
	// directly or not, defined in the same (flattened) file. The paper
	// regenerates the contract (§IV-B), and the deployed contract is all of it.
	ScopeChain = "chain"
	// ScopeTarget stubs only the functions declared in the target itself
	// (the default before issue 17).
	ScopeTarget = "target"
)

// RegenerateFlagUsage is the help of the shared --regenerate flag.
const RegenerateFlagUsage = "bodies to regenerate: chain (the target and every base it inherits from in its file, as the paper) " +
	"or target (only the target's own functions)"

// CheckScope rejects a scope that is neither chain nor target.
func CheckScope(scope string) error {
	if scope != ScopeChain && scope != ScopeTarget {
		return fmt.Errorf("regenerate %q: want %s or %s", scope, ScopeChain, ScopeTarget)
	}
	return nil
}

// Input is the original a skeleton is made from.
type Input struct {
	Files  map[string]string // the original source files, name -> text
	File   string            // the file that defines the target contract
	Target string            // the target contract's name
	AST    *solast.Node      // File's AST (a SourceUnit), from solc
	Scope  string            // ScopeChain ("" too) or ScopeTarget
}

// Range is a function's place in the original file (byte offsets).
type Range struct {
	Start     int // the `function` (or `constructor`, ...) keyword
	BodyStart int // the body's `{`; -1 without a body
	BodyEnd   int // just past the body's `}`
}

// Function is one function of the regenerated contracts as the skeleton shows it.
type Function struct {
	Index           int            `json:"index"`
	Key             string         `json:"key"`      // name, name(types) when overloaded, or the kind; Base.<that> outside the target
	Contract        string         `json:"contract"` // the contract that declares it (the target or one of its bases)
	Nontrivial      bool           `json:"nontrivial"`
	Signature       string         `json:"signature"` // canonical name(types)
	Name            string         `json:"name"`
	Kind            string         `json:"kind"`
	Visibility      string         `json:"visibility"`
	StateMutability string         `json:"state_mutability"`
	Modifiers       []string       `json:"modifiers,omitempty"`
	Params          []solast.Param `json:"params,omitempty"`
	Returns         []solast.Param `json:"returns,omitempty"`
	HasBody         bool           `json:"has_body"`
	Stub            string         `json:"stub"`
	NatSpec         []string       `json:"natspec,omitempty"` // the lines above the header, without `/// `
	NatSpecSource   string         `json:"natspec_source"`    // llm, template or none
	// HeaderStart/HeaderEnd and BodyStart/BodyEnd are offsets into
	// Skeleton.Text: the header (keyword to the last token before the body)
	// and the hole (Placeholder).
	HeaderStart int   `json:"header_start"`
	HeaderEnd   int   `json:"header_end"`
	BodyStart   int   `json:"body_start"`
	BodyEnd     int   `json:"body_end"`
	Orig        Range `json:"orig"`
}

// Skeleton is a contract with its target's bodies removed.
type Skeleton struct {
	Target    string            `json:"target"`
	Scope     string            `json:"scope"` // ScopeChain or ScopeTarget
	File      string            `json:"file"`
	Text      string            `json:"text"`  // File, with a Placeholder per hole
	Files     map[string]string `json:"files"` // every file, comments stripped (File as the original minus comments)
	Functions []Function        `json:"functions"`
}

// DocFunc supplies the NatSpec of a public or external function; nil (or a
// nil result) means the template.
type DocFunc func(f Function) *Doc

// Build makes the skeleton of in.
func Build(in Input, docs DocFunc) (*Skeleton, error) {
	src, ok := in.Files[in.File]
	if !ok {
		return nil, fmt.Errorf("skeleton: no file %q in the sources", in.File)
	}
	scope := in.Scope
	if scope == "" {
		scope = ScopeChain
	}
	if err := CheckScope(scope); err != nil {
		return nil, err
	}
	contracts, err := regenerated(in, scope)
	if err != nil {
		return nil, err
	}
	fns, err := describeAll(contracts, in.Target, src)
	if err != nil {
		return nil, err
	}
	for i := range fns {
		writeNatSpec(&fns[i], docs)
	}
	sk := &Skeleton{Target: in.Target, Scope: scope, File: in.File, Files: map[string]string{}}
	for name, text := range in.Files {
		sk.Files[name] = StripComments(text)
	}
	sk.Text = render(src, fns)
	sk.Functions = fns
	return sk, nil
}

// regenerated lists the contracts whose bodies the scope stubs, in source
// order: the target alone, or the target and every contract it inherits
// from that the file defines. Libraries and interfaces are not part of the
// contract (a library is called, not inherited), so they keep their bodies;
// a base defined in another file of a multi-file source cannot be rewritten
// in this file's skeleton and keeps its bodies too.
func regenerated(in Input, scope string) ([]solast.Contract, error) {
	if in.AST == nil {
		return nil, errors.New("skeleton: no AST")
	}
	all := solast.Contracts(in.AST)
	byName := map[string]solast.Contract{}
	for _, c := range all {
		byName[c.Name] = c
	}
	target, ok := byName[in.Target]
	if !ok {
		return nil, fmt.Errorf("skeleton: contract %s is not defined in %s", in.Target, in.File)
	}
	chain := map[string]bool{target.Name: true}
	if scope == ScopeChain {
		queue := append([]string(nil), target.Bases...)
		for len(queue) > 0 {
			name := queue[0]
			queue = queue[1:]
			c, ok := byName[name]
			if !ok || chain[name] || c.Kind != "contract" {
				continue
			}
			chain[name] = true
			queue = append(queue, c.Bases...)
		}
	}
	var out []solast.Contract
	for _, c := range all {
		if chain[c.Name] {
			out = append(out, c)
		}
	}
	return out, nil
}

// describeAll lists the functions of every regenerated contract in source
// order across the file (the order generators complete them in), with keys
// unique across contracts: a base's functions are prefixed with its name.
func describeAll(contracts []solast.Contract, target, src string) ([]Function, error) {
	var out []Function
	for _, c := range contracts {
		fns, err := describe(c.Node, src)
		if err != nil {
			return nil, err
		}
		for _, f := range fns {
			if c.Name != target {
				f.Key = c.Name + "." + f.Key
			}
			out = append(out, f)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Orig.Start < out[j].Orig.Start })
	for i := range out {
		out[i].Index = i
	}
	return out, nil
}

// IsNontrivial is the paper's non-trivial function (§IV-A c): neither a
// constructor nor view or pure.
func IsNontrivial(kind, mutability string) bool {
	return kind != "constructor" && mutability != "view" && mutability != "pure"
}

// describe lists the contract's functions with their original ranges.
func describe(contract *solast.Node, src string) ([]Function, error) {
	decls := solast.Functions(contract)
	names := map[string]int{}
	for _, d := range decls {
		names[d.Name]++
	}
	out := make([]Function, 0, len(decls))
	for i, d := range decls {
		f := Function{Index: i, Contract: contract.Name, Name: d.Name, Kind: d.Kind, Visibility: d.Visibility,
			StateMutability: d.StateMutability, Modifiers: d.Modifiers, Params: d.Params, Returns: d.Returns,
			Orig: Range{Start: d.Src.Start, BodyStart: -1, BodyEnd: -1}}
		if d.Src.Start < 0 || d.Src.End() > len(src) {
			return nil, fmt.Errorf("skeleton: function %d of %s has a range outside the source", i, contract.Name)
		}
		if d.BodySrc != nil {
			b := *d.BodySrc
			if b.Start < d.Src.Start || b.End() > d.Src.End() || b.Length < 2 || src[b.Start] != '{' || src[b.End()-1] != '}' {
				return nil, fmt.Errorf("skeleton: body of function %d of %s is not a {...} block inside it", i, contract.Name)
			}
			f.HasBody, f.Orig.BodyStart, f.Orig.BodyEnd = true, b.Start, b.End()
		}
		f.Signature = Signature(f.Kind, f.Name, f.Params)
		f.Key = functionKey(f, names)
		f.Stub = stubFor(d)
		f.Nontrivial = f.HasBody && IsNontrivial(f.Kind, f.StateMutability)
		out = append(out, f)
	}
	return out, nil
}

func functionKey(f Function, names map[string]int) string {
	if f.Kind != "function" {
		return f.Kind
	}
	if names[f.Name] > 1 {
		return f.Signature
	}
	return f.Name
}

// Signature is name(type,...) with data locations dropped.
func Signature(kind, name string, params []solast.Param) string {
	if kind != "function" {
		name = kind
	}
	types := make([]string, len(params))
	for i, p := range params {
		types[i] = canonicalType(p.Type)
	}
	return name + "(" + strings.Join(types, ",") + ")"
}

var typeNoise = strings.NewReplacer(" storage pointer", "", " storage ref", "", " memory", "", " calldata", "",
	" storage", "", " pointer", "", " ref", "", "address payable", "address", "contract ", "", "struct ", "", "enum ", "")

func canonicalType(t string) string { return typeNoise.Replace(t) }

// stubFor is the body that lets the function compile: empty, unless it
// returns a storage pointer, which an empty body cannot.
func stubFor(d solast.Function) string {
	if rets := d.Node.Child("returnParameters"); rets != nil {
		for _, v := range rets.Children {
			if v.Str("storageLocation") == "storage" || strings.Contains(varTypeString(v), " storage") {
				return "{ revert(); }"
			}
		}
	}
	return "{}"
}

func varTypeString(v *solast.Node) string {
	if td, ok := v.Attrs["typeDescriptions"].(map[string]any); ok {
		if s, ok := td["typeString"].(string); ok {
			return s
		}
	}
	return v.Str("type")
}

// render writes the skeleton text and fills in each function's offsets.
func render(src string, fns []Function) string {
	type mark struct {
		edit
		fn      int
		natspec bool
	}
	var marks []mark
	var bodies []span
	cls := classify(src)
	for i, f := range fns {
		// an insertion at every function start (its NatSpec, maybe none)
		// marks where its header begins in the output
		marks = append(marks, mark{edit{f.Orig.Start, f.Orig.Start, natSpecBlock(src, cls, f.Orig.Start, f.NatSpec)}, i, true})
		if f.HasBody {
			marks = append(marks, mark{edit{f.Orig.BodyStart, f.Orig.BodyEnd, Placeholder}, i, false})
			bodies = append(bodies, span{f.Orig.BodyStart, f.Orig.BodyEnd})
		}
	}
	for _, c := range commentEdits(src) {
		if !inside(c, bodies) {
			marks = append(marks, mark{edit: c, fn: -1})
		}
	}
	sort.SliceStable(marks, func(i, j int) bool { return marks[i].start < marks[j].start })
	var b strings.Builder
	pos := 0
	starts := map[int]int{} // fn -> header start in the output
	for _, m := range marks {
		if m.start < pos {
			continue // inside an earlier edit (cannot happen with AST ranges; be safe)
		}
		b.WriteString(src[pos:m.start])
		if m.fn >= 0 && m.natspec {
			b.WriteString(m.text)
			starts[m.fn] = b.Len()
		} else if m.fn >= 0 {
			f := &fns[m.fn]
			f.HeaderStart = starts[m.fn]
			f.BodyStart = b.Len()
			b.WriteString(m.text)
			f.BodyEnd = b.Len()
		} else {
			b.WriteString(m.text)
		}
		pos = m.end
	}
	b.WriteString(src[pos:])
	text := b.String()
	for i := range fns {
		if fns[i].HasBody {
			fns[i].HeaderEnd = fns[i].HeaderStart + len(strings.TrimRight(text[fns[i].HeaderStart:fns[i].BodyStart], " \t\r\n"))
		}
	}
	return text
}

func inside(e edit, spans []span) bool {
	for _, s := range spans {
		if e.start >= s.start && e.end <= s.end {
			return true
		}
	}
	return false
}

// Header is function i's header as the skeleton has it.
func (s *Skeleton) Header(i int) string {
	f := s.Functions[i]
	return s.Text[f.HeaderStart:f.HeaderEnd]
}

// Fill returns the target file with bodies[i] in function i's hole and
// headers[i] (when given) in place of its header; holes without a body get
// pending ("" = Placeholder).
func (s *Skeleton) Fill(bodies, headers map[int]string, pending string) string {
	if pending == "" {
		pending = Placeholder
	}
	var b strings.Builder
	pos := 0
	for _, f := range s.Functions {
		if !f.HasBody {
			continue
		}
		b.WriteString(s.Text[pos:f.HeaderStart])
		if h, ok := headers[f.Index]; ok {
			b.WriteString(h)
		} else {
			b.WriteString(s.Text[f.HeaderStart:f.HeaderEnd])
		}
		b.WriteString(s.Text[f.HeaderEnd:f.BodyStart])
		if body, ok := bodies[f.Index]; ok {
			b.WriteString(body)
		} else {
			b.WriteString(pending)
		}
		pos = f.BodyEnd
	}
	b.WriteString(s.Text[pos:])
	return b.String()
}

// Stubs maps every hole to its stub.
func (s *Skeleton) Stubs() map[int]string {
	out := map[int]string{}
	for _, f := range s.Functions {
		if f.HasBody {
			out[f.Index] = f.Stub
		}
	}
	return out
}

// Stubbed is the target file with every body stubbed.
func (s *Skeleton) Stubbed() string { return s.Fill(s.Stubs(), nil, "") }

// Sources is every file of the contract with target as the target file.
func (s *Skeleton) Sources(target string) map[string]string {
	out := make(map[string]string, len(s.Files))
	for k, v := range s.Files {
		out[k] = v
	}
	out[s.File] = target
	return out
}

// Nontrivial counts the holes of non-trivial functions.
func (s *Skeleton) Nontrivial() int {
	n := 0
	for _, f := range s.Functions {
		if f.HasBody && f.Nontrivial {
			n++
		}
	}
	return n
}

// Holes lists the indexes of the functions that have a body to write, in order.
func (s *Skeleton) Holes() []int {
	var out []int
	for _, f := range s.Functions {
		if f.HasBody {
			out = append(out, f.Index)
		}
	}
	return out
}

// Edit replaces Text at [Start, End) of the original file.
type Edit struct {
	Start, End int
	Text       string
}

// Original is the original target file, ready to give back its parts
// comment-stripped exactly as the skeleton strips them.
type Original struct {
	Src      string
	comments []edit
}

// NewOriginal prepares an original file.
func NewOriginal(src string) *Original { return &Original{Src: src, comments: commentEdits(src)} }

// Body is function f's original body, comments stripped, with edits (in
// original offsets, inside the body) applied first: the reference body when
// there are none, a mutated body otherwise.
func (o *Original) Body(f Function, edits ...Edit) string {
	if !f.HasBody {
		return ""
	}
	return o.cut(f.Orig.BodyStart, f.Orig.BodyEnd, edits)
}

// Header is function f's original header as the skeleton shows it, with
// edits applied (a mutant drops a modifier invocation this way).
func (o *Original) Header(f Function, edits ...Edit) string {
	if !f.HasBody {
		return ""
	}
	return strings.TrimRight(o.cut(f.Orig.Start, f.Orig.BodyStart, edits), " \t\r\n")
}

// cut renders src[from:to] with the given edits and the comment deletions
// that fall inside the range and do not overlap them.
func (o *Original) cut(from, to int, given []Edit) string {
	var es []edit
	for _, g := range given {
		if g.Start < from || g.End > to || g.Start > g.End {
			continue // outside the range: ignore rather than corrupt
		}
		es = append(es, edit{g.Start - from, g.End - from, g.Text})
	}
	for _, c := range o.comments {
		if c.start < from || c.end > to {
			continue
		}
		local := edit{c.start - from, c.end - from, c.text}
		if !overlaps(local, es) {
			es = append(es, local)
		}
	}
	sort.SliceStable(es, func(i, j int) bool { return es[i].start < es[j].start })
	return apply(o.Src[from:to], dropOverlaps(es))
}

func overlaps(e edit, es []edit) bool {
	for _, x := range es {
		if e.start < x.end && x.start < e.end || e.start == x.start {
			return true
		}
	}
	return false
}

func dropOverlaps(es []edit) []edit {
	var out []edit
	end := -1
	for _, e := range es {
		if e.start < end {
			continue
		}
		out = append(out, e)
		end = max(end, e.end)
	}
	return out
}

// Decode reads a skeleton saved as JSON and checks that its offsets fit
// its text, so a damaged file is an error rather than a panic later.
func Decode(b []byte) (*Skeleton, error) {
	var s Skeleton
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("skeleton: %w", err)
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return &s, nil
}

// Validate checks the skeleton's offsets.
func (s *Skeleton) Validate() error {
	pos := 0
	for i, f := range s.Functions {
		if f.Index != i {
			return fmt.Errorf("skeleton: function %d has index %d", i, f.Index)
		}
		if !f.HasBody {
			continue
		}
		if f.HeaderStart < pos || f.HeaderEnd < f.HeaderStart || f.BodyStart < f.HeaderEnd || f.BodyEnd < f.BodyStart || f.BodyEnd > len(s.Text) {
			return fmt.Errorf("skeleton: offsets of function %d (%s) do not fit the text", i, f.Key)
		}
		pos = f.BodyEnd
	}
	if _, ok := s.Files[s.File]; !ok {
		return fmt.Errorf("skeleton: no file %q among its files", s.File)
	}
	return nil
}
