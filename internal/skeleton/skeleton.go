package skeleton

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/solbehave/solbehave/internal/solast"
	"github.com/solbehave/solbehave/internal/soltext"
)

// Placeholder marks a body not written yet.
const Placeholder = "{ /* TODO */ }"

// Regeneration scopes (--regenerate).
const (
	// ScopeChain stubs every function with a body in the target's
	// inheritance chain: the target and every base it inherits from,
	// directly or not, in whichever file it is defined. The paper
	// regenerates the contract (§IV-B), and the deployed contract is all of it.
	ScopeChain = "chain"
	// ScopeTarget stubs only the functions declared in the target itself
	// (an ablation: bases keep the original's bodies).
	ScopeTarget = "target"
	// ScopeCounted stubs, in the chain, only the functions the paper's size
	// count counts (§IV-A c: non-trivial, with a body: neither constructors
	// nor view or pure); the rest keep the original's bodies. The paper
	// regenerates "the function bodies" without saying which, and Table
	// VII's seconds per sample fit about one per counted function.
	ScopeCounted = "counted"
)

// RegenerateFlagUsage is the help of the shared --regenerate flag.
const RegenerateFlagUsage = "bodies to regenerate: chain (the target and every base it inherits from, in any file, as the paper), " +
	"target (only the target's own functions) or counted (in the chain, only the functions the size count counts)"

// CheckScope rejects a scope that is not chain, target or counted.
func CheckScope(scope string) error {
	if scope != ScopeChain && scope != ScopeTarget && scope != ScopeCounted {
		return fmt.Errorf("regenerate %q: want %s, %s or %s", scope, ScopeChain, ScopeTarget, ScopeCounted)
	}
	return nil
}

// Format is the layout of a skeleton's JSON: Decode refuses another one,
// so a skeleton an older version wrote is made again, never misread.
const Format = 2

// Input is the original a skeleton is made from.
type Input struct {
	Files  map[string]string       // the original source files, name -> text
	File   string                  // the file that defines the target contract
	Target string                  // the target contract's name
	ASTs   map[string]*solast.Node // every file's AST (a SourceUnit) from one compile: File's at least
	Scope  string                  // ScopeChain ("" too) or ScopeTarget
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
	File            string         `json:"file"`     // the file that declares it
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
	// Kept: the function keeps the original's body (--regenerate counted
	// and a function the size count does not count): no hole.
	Kept          bool     `json:"kept,omitempty"`
	Stub          string   `json:"stub"`
	NatSpec       []string `json:"natspec,omitempty"` // the lines above the header, without `/// `
	NatSpecSource string   `json:"natspec_source"`    // llm, template or none
	// HeaderStart/HeaderEnd and BodyStart/BodyEnd are offsets into
	// Skeleton.Files[File]: the header (keyword to the last token before
	// the body) and the hole (Placeholder).
	HeaderStart int   `json:"header_start"`
	HeaderEnd   int   `json:"header_end"`
	BodyStart   int   `json:"body_start"`
	BodyEnd     int   `json:"body_end"`
	Orig        Range `json:"orig"` // in the original File
}

// Skeleton is a contract with the bodies of its regenerated contracts removed.
type Skeleton struct {
	Format int    `json:"format"`
	Target string `json:"target"`
	Scope  string `json:"scope"` // ScopeChain or ScopeTarget
	File   string `json:"file"`  // the target's file
	// Files holds every file as the skeleton shows it: a file declaring
	// regenerated functions with a Placeholder per hole, every other file
	// comments stripped.
	Files     map[string]string `json:"files"`
	Functions []Function        `json:"functions"` // in generation order (see Build)
}

// DocFunc supplies the NatSpec of a public or external function; nil (or a
// nil result) means the template.
type DocFunc func(f Function) *Doc

// Build makes the skeleton of in. The functions come in generation order:
// file by file, each file where the first of its regenerated contracts
// comes in the target's linearisation read most base first (a base's file
// before the files that build on it), and in source order inside a file. A
// single-file source is thus in source order across the file.
func Build(in Input, docs DocFunc) (*Skeleton, error) {
	if _, ok := in.Files[in.File]; !ok {
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
	fns, err := describeAll(contracts, in.Target, in.Files)
	if err != nil {
		return nil, err
	}
	for i := range fns {
		fns[i].Kept = scope == ScopeCounted && !fns[i].Nontrivial
		writeNatSpec(&fns[i], docs)
	}
	sk := &Skeleton{Format: Format, Target: in.Target, Scope: scope, File: in.File, Files: map[string]string{}}
	for name, text := range in.Files {
		sk.Files[name] = soltext.StripComments(text)
	}
	for _, file := range filesOf(fns) {
		sk.Files[file] = render(in.Files[file], fns, file)
	}
	sk.Functions = fns
	return sk, nil
}

// chainContract is a regenerated contract and the file that defines it.
type chainContract struct {
	file string
	solast.Contract
}

// regenerated lists the contracts whose bodies the scope stubs, in
// generation order: the target alone, or the target and every contract it
// inherits from, in whatever file it is defined. Libraries and interfaces
// are not part of the contract (a library is called, not inherited), so
// they keep their bodies.
func regenerated(in Input, scope string) ([]chainContract, error) {
	if in.ASTs[in.File] == nil {
		return nil, fmt.Errorf("skeleton: no AST for %s", in.File)
	}
	var target *chainContract
	byID := map[int]chainContract{}
	byName := map[string]chainContract{}
	for _, file := range sortedFiles(in.ASTs) {
		for _, c := range solast.Contracts(in.ASTs[file]) {
			cc := chainContract{file, c}
			byID[c.Node.ID] = cc
			if _, dup := byName[c.Name]; !dup || file == in.File {
				byName[c.Name] = cc
			}
			if file == in.File && c.Name == in.Target && target == nil {
				target = &cc
			}
		}
	}
	if target == nil {
		return nil, fmt.Errorf("skeleton: contract %s is not defined in %s", in.Target, in.File)
	}
	if scope == ScopeTarget {
		return []chainContract{*target}, nil
	}
	lin := linearization(*target, byID, byName)
	var chain []chainContract
	for _, c := range lin {
		if c.Kind == "contract" {
			if _, ok := in.Files[c.file]; !ok {
				return nil, fmt.Errorf("skeleton: %s is defined in %s, which the sources do not hold", c.Name, c.file)
			}
			chain = append(chain, c)
		}
	}
	return inGenerationOrder(chain), nil
}

// linearization is the target and its bases, most derived first, as solc's
// linearizedBaseContracts lists them; without it (never seen), the bases
// reached by name, breadth first.
func linearization(target chainContract, byID map[int]chainContract, byName map[string]chainContract) []chainContract {
	var out []chainContract
	if ids, ok := target.Node.Attrs["linearizedBaseContracts"].([]any); ok {
		for _, id := range ids {
			if f, ok := id.(float64); ok {
				if c, ok := byID[int(f)]; ok {
					out = append(out, c)
				}
			}
		}
	}
	if len(out) > 0 {
		return out
	}
	seen := map[string]bool{target.Name: true}
	out = []chainContract{target}
	for i := 0; i < len(out); i++ {
		for _, name := range out[i].Bases {
			if c, ok := byName[name]; ok && !seen[name] {
				seen[name] = true
				out = append(out, c)
			}
		}
	}
	return out
}

// inGenerationOrder orders a chain listed most derived first: files as
// their first contract comes most base first, source order inside a file.
func inGenerationOrder(chain []chainContract) []chainContract {
	files := make([]string, len(chain))
	for i, c := range chain {
		files[i] = c.file
	}
	rank := map[string]int{}
	for i, f := range soltext.BaseFirst(files) {
		rank[f] = i
	}
	out := append([]chainContract(nil), chain...)
	sort.SliceStable(out, func(i, j int) bool {
		if rank[out[i].file] != rank[out[j].file] {
			return rank[out[i].file] < rank[out[j].file]
		}
		return out[i].Src.Start < out[j].Src.Start
	})
	return out
}

func sortedFiles[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// describeAll lists the functions of every regenerated contract in
// generation order, with keys unique across contracts: a base's functions
// are prefixed with its name (and its file, should two bases share a name).
func describeAll(contracts []chainContract, target string, files map[string]string) ([]Function, error) {
	names := map[string]int{}
	for _, c := range contracts {
		names[c.Name]++
	}
	var out []Function
	for _, c := range contracts {
		fns, err := describe(c.Node, files[c.file])
		if err != nil {
			return nil, err
		}
		for _, f := range fns {
			f.File = c.file
			switch {
			case names[c.Name] > 1:
				f.Key = c.file + ":" + c.Name + "." + f.Key
			case c.Name != target:
				f.Key = c.Name + "." + f.Key
			}
			f.Index = len(out)
			out = append(out, f)
		}
	}
	return out, nil
}

// filesOf lists the files that declare fns, in their order.
func filesOf(fns []Function) []string {
	var out []string
	seen := map[string]bool{}
	for _, f := range fns {
		if !seen[f.File] {
			seen[f.File] = true
			out = append(out, f.File)
		}
	}
	return out
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
		f.Nontrivial = f.HasBody && soltext.IsNontrivial(f.Kind, f.StateMutability)
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

// render writes the skeleton text of file and fills in the offsets of the
// functions it declares.
func render(src string, fns []Function, file string) string {
	type mark struct {
		soltext.Edit
		fn      int
		natspec bool
	}
	var marks []mark
	var bodies []soltext.Span
	cls := soltext.Classify(src)
	for i, f := range fns {
		if f.File != file {
			continue
		}
		// an insertion at every function start (its NatSpec, maybe none)
		// marks where its header begins in the output
		marks = append(marks, mark{soltext.Edit{Start: f.Orig.Start, End: f.Orig.Start, Text: natSpecBlock(src, cls, f.Orig.Start, f.NatSpec)}, i, true})
		if f.Hole() {
			marks = append(marks, mark{soltext.Edit{Start: f.Orig.BodyStart, End: f.Orig.BodyEnd, Text: Placeholder}, i, false})
			bodies = append(bodies, soltext.Span{Start: f.Orig.BodyStart, End: f.Orig.BodyEnd})
		}
	}
	for _, c := range soltext.CommentEdits(src) {
		if !inside(c, bodies) {
			marks = append(marks, mark{Edit: c, fn: -1})
		}
	}
	sort.SliceStable(marks, func(i, j int) bool { return marks[i].Start < marks[j].Start })
	var b strings.Builder
	pos := 0
	starts := map[int]int{} // fn -> header start in the output
	for _, m := range marks {
		if m.Start < pos {
			continue // inside an earlier edit (cannot happen with AST ranges; be safe)
		}
		b.WriteString(src[pos:m.Start])
		if m.fn >= 0 && m.natspec {
			b.WriteString(m.Text)
			starts[m.fn] = b.Len()
		} else if m.fn >= 0 {
			f := &fns[m.fn]
			f.HeaderStart = starts[m.fn]
			f.BodyStart = b.Len()
			b.WriteString(m.Text)
			f.BodyEnd = b.Len()
		} else {
			b.WriteString(m.Text)
		}
		pos = m.End
	}
	b.WriteString(src[pos:])
	text := b.String()
	for i := range fns {
		if fns[i].Hole() && fns[i].File == file {
			fns[i].HeaderEnd = fns[i].HeaderStart + len(strings.TrimRight(text[fns[i].HeaderStart:fns[i].BodyStart], " \t\r\n"))
		}
	}
	return text
}

func inside(e soltext.Edit, spans []soltext.Span) bool {
	for _, s := range spans {
		if e.Start >= s.Start && e.End <= s.End {
			return true
		}
	}
	return false
}

// Header is function i's header as the skeleton has it.
func (s *Skeleton) Header(i int) string {
	f := s.Functions[i]
	return s.Files[f.File][f.HeaderStart:f.HeaderEnd]
}

// Fill returns every file of the contract with bodies[i] in function i's
// hole and headers[i] (when given) in place of its header; holes without a
// body get pending ("" = Placeholder).
func (s *Skeleton) Fill(bodies, headers map[int]string, pending string) map[string]string {
	if pending == "" {
		pending = Placeholder
	}
	out := make(map[string]string, len(s.Files))
	for name, text := range s.Files {
		out[name] = text
	}
	for _, file := range s.ChainFiles() {
		out[file] = s.fillFile(file, bodies, headers, pending)
	}
	return out
}

func (s *Skeleton) fillFile(file string, bodies, headers map[int]string, pending string) string {
	text := s.Files[file]
	var b strings.Builder
	pos := 0
	for _, f := range s.Functions {
		if !f.Hole() || f.File != file {
			continue
		}
		b.WriteString(text[pos:f.HeaderStart])
		if h, ok := headers[f.Index]; ok {
			b.WriteString(h)
		} else {
			b.WriteString(text[f.HeaderStart:f.HeaderEnd])
		}
		b.WriteString(text[f.HeaderEnd:f.BodyStart])
		if body, ok := bodies[f.Index]; ok {
			b.WriteString(body)
		} else {
			b.WriteString(pending)
		}
		pos = f.BodyEnd
	}
	b.WriteString(text[pos:])
	return b.String()
}

// ChainFiles lists the files a generator sees: every file declaring a
// regenerated function, in generation order, and the target's file (last
// when it declares none).
func (s *Skeleton) ChainFiles() []string {
	out := filesOf(s.Functions)
	for _, f := range out {
		if f == s.File {
			return out
		}
	}
	return append(out, s.File)
}

// Show renders the chain's files of files (a filled or stubbed skeleton)
// as one text, in ChainFiles order: the file itself for a single-file
// chain, else each file under a `// File: <name>` line.
func (s *Skeleton) Show(files map[string]string) string {
	return ShowFiles(files, s.ChainFiles())
}

// ShowFiles renders the named files as one text: the file itself when
// there is one, else each under a `// File: <name>` line.
func ShowFiles(files map[string]string, names []string) string {
	if len(names) == 1 {
		return files[names[0]]
	}
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = "// File: " + n + "\n" + strings.TrimRight(files[n], "\n") + "\n"
	}
	return strings.Join(parts, "\n")
}

// Stubs maps every hole to its stub.
func (s *Skeleton) Stubs() map[int]string {
	out := map[int]string{}
	for _, f := range s.Functions {
		if f.Hole() {
			out[f.Index] = f.Stub
		}
	}
	return out
}

// Stubbed is every file of the contract with every body stubbed.
func (s *Skeleton) Stubbed() map[string]string { return s.Fill(s.Stubs(), nil, "") }

// Nontrivial counts the holes of non-trivial functions.
func (s *Skeleton) Nontrivial() int {
	n := 0
	for _, f := range s.Functions {
		if f.Hole() && f.Nontrivial {
			n++
		}
	}
	return n
}

// Hole says whether the function has a body to write: it has one in the
// original and the scope does not keep it.
func (f Function) Hole() bool { return f.HasBody && !f.Kept }

// Holes lists the indexes of the functions that have a body to write, in order.
func (s *Skeleton) Holes() []int {
	var out []int
	for _, f := range s.Functions {
		if f.Hole() {
			out = append(out, f.Index)
		}
	}
	return out
}

// Edit replaces Text at [Start, End) of an original file.
type Edit = soltext.Edit

// Original is the original source, ready to give back the parts of its
// files comment-stripped exactly as the skeleton strips them.
type Original struct {
	files map[string]*originalFile
}

type originalFile struct {
	src      string
	comments []soltext.Edit
}

// NewOriginal prepares the original files.
func NewOriginal(files map[string]string) *Original {
	o := &Original{files: make(map[string]*originalFile, len(files))}
	for name, src := range files {
		o.files[name] = &originalFile{src: src, comments: soltext.CommentEdits(src)}
	}
	return o
}

// Body is function f's original body, comments stripped, with edits (in
// original offsets of f's file, inside the body) applied first: the
// reference body when there are none, a mutated body otherwise.
func (o *Original) Body(f Function, edits ...Edit) string {
	of := o.files[f.File]
	if !f.HasBody || of == nil {
		return ""
	}
	return of.cut(f.Orig.BodyStart, f.Orig.BodyEnd, edits)
}

// Header is function f's original header as the skeleton shows it, with
// edits applied (a mutant drops a modifier invocation this way).
func (o *Original) Header(f Function, edits ...Edit) string {
	of := o.files[f.File]
	if !f.HasBody || of == nil {
		return ""
	}
	return strings.TrimRight(of.cut(f.Orig.Start, f.Orig.BodyStart, edits), " \t\r\n")
}

// cut renders src[from:to] with the given edits and the comment deletions
// that fall inside the range and do not overlap them.
func (o *originalFile) cut(from, to int, given []Edit) string {
	var es []soltext.Edit
	for _, g := range given {
		if g.Start < from || g.End > to || g.Start > g.End {
			continue // outside the range: ignore rather than corrupt
		}
		es = append(es, Edit{Start: g.Start - from, End: g.End - from, Text: g.Text})
	}
	for _, c := range o.comments {
		if c.Start < from || c.End > to {
			continue
		}
		local := soltext.Edit{Start: c.Start - from, End: c.End - from, Text: c.Text}
		if !overlaps(local, es) {
			es = append(es, local)
		}
	}
	sort.SliceStable(es, func(i, j int) bool { return es[i].Start < es[j].Start })
	return soltext.Apply(o.src[from:to], dropOverlaps(es))
}

func overlaps(e soltext.Edit, es []soltext.Edit) bool {
	for _, x := range es {
		if e.Start < x.End && x.Start < e.End || e.Start == x.Start {
			return true
		}
	}
	return false
}

func dropOverlaps(es []soltext.Edit) []soltext.Edit {
	var out []soltext.Edit
	end := -1
	for _, e := range es {
		if e.Start < end {
			continue
		}
		out = append(out, e)
		end = max(end, e.End)
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
	if s.Format != Format {
		return nil, fmt.Errorf("skeleton: format %d, not %d (an older version wrote it): run the skeleton stage again", s.Format, Format)
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return &s, nil
}

// Validate checks the skeleton's offsets.
func (s *Skeleton) Validate() error {
	if _, ok := s.Files[s.File]; !ok {
		return fmt.Errorf("skeleton: no file %q among its files", s.File)
	}
	pos := map[string]int{}
	for i, f := range s.Functions {
		if f.Index != i {
			return fmt.Errorf("skeleton: function %d has index %d", i, f.Index)
		}
		text, ok := s.Files[f.File]
		if !ok {
			return fmt.Errorf("skeleton: function %d (%s) is in %q, not among its files", i, f.Key, f.File)
		}
		if !f.Hole() {
			continue
		}
		if f.HeaderStart < pos[f.File] || f.HeaderEnd < f.HeaderStart || f.BodyStart < f.HeaderEnd || f.BodyEnd < f.BodyStart || f.BodyEnd > len(text) {
			return fmt.Errorf("skeleton: offsets of function %d (%s) do not fit the text", i, f.Key)
		}
		pos[f.File] = f.BodyEnd
	}
	return nil
}
