package mutate

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"regexp"
	"sort"
	"strings"

	"github.com/solbehave/solbehave/internal/solast"
)

// DefaultRate is the per-function mutation probability.
const DefaultRate = 0.3

// Operator names.
const (
	DropRequire     = "drop_require"
	Relational      = "relational"
	Boundary        = "boundary"
	Arithmetic      = "arithmetic"
	Logical         = "logical"
	Constant        = "constant"
	DeleteStatement = "delete_statement"
	SenderOrigin    = "sender_origin"
	RemoveModifier  = "remove_modifier"
	ReturnValue     = "return_value"
	Unchecked       = "unchecked"
)

// Operators lists every operator.
func Operators() []string {
	return []string{DropRequire, Relational, Boundary, Arithmetic, Logical, Constant,
		DeleteStatement, SenderOrigin, RemoveModifier, ReturnValue, Unchecked}
}

// Site is one possible mutation: src[Start:End] of the original file becomes Text.
type Site struct {
	Operator   string
	Start, End int
	Text       string
	Detail     string // what changes, for the samples.mutations record
	Header     bool   // the range is in the function's header, not its body
}

// Options say what the compiler and the source allow.
type Options struct {
	Checked   bool            // solc >= 0.8: arithmetic is checked, `unchecked` exists
	Modifiers map[string]bool // names of the source's modifier definitions
}

// Mutation is what a sample records about one mutated function.
type Mutation struct {
	Function  string `json:"function"`
	Signature string `json:"signature"`
	Operator  string `json:"operator"`
	Detail    string `json:"detail"`
}

// ModifierNames collects the modifier definitions under root: a
// ModifierInvocation naming anything else is a base-constructor call.
func ModifierNames(root *solast.Node) map[string]bool {
	out := map[string]bool{}
	for _, n := range root.FindAll("ModifierDefinition") {
		out[n.Name] = true
	}
	return out
}

// Sites lists every mutation site of a function, in source order.
func Sites(src string, fn solast.Function, opts Options) []Site {
	if fn.BodySrc == nil || fn.Node == nil || fn.BodySrc.End() > len(src) {
		return nil
	}
	f := &finder{src: src, opts: opts}
	f.modifiers(fn)
	if body := fn.Node.Child("body"); body != nil {
		f.walk(body, nil, false)
	}
	sort.SliceStable(f.sites, func(i, j int) bool {
		if f.sites[i].Start != f.sites[j].Start {
			return f.sites[i].Start < f.sites[j].Start
		}
		return f.sites[i].Operator < f.sites[j].Operator
	})
	return f.sites
}

// Pick draws whether function index of a sample is mutated and at which site.
func Pick(seed int64, index int, sites []Site, rate float64) (Site, bool) {
	rng := rand.New(rand.NewPCG(uint64(seed), uint64(index)+0x9e3779b97f4a7c15))
	if rng.Float64() >= rate || len(sites) == 0 {
		return Site{}, false
	}
	byOp := map[string][]Site{}
	var ops []string
	for _, s := range sites {
		if byOp[s.Operator] == nil {
			ops = append(ops, s.Operator)
		}
		byOp[s.Operator] = append(byOp[s.Operator], s)
	}
	sort.Strings(ops)
	group := byOp[ops[rng.IntN(len(ops))]]
	return group[rng.IntN(len(group))], true
}

type finder struct {
	src   string
	opts  Options
	sites []Site
}

func (f *finder) add(op string, start, end int, text, detail string, header bool) {
	if start < 0 || end > len(f.src) || start > end {
		return
	}
	f.sites = append(f.sites, Site{Operator: op, Start: start, End: end, Text: text, Detail: detail, Header: header})
}

func (f *finder) modifiers(fn solast.Function) {
	for _, inv := range fn.Node.ChildrenOf("modifiers") {
		name := inv.Child("modifierName")
		if name == nil {
			continue
		}
		label := name.Name
		if label == "" {
			label = strings.TrimSpace(name.Src.Text(f.src))
		}
		if !f.opts.Modifiers[label] {
			continue
		}
		f.add(RemoveModifier, inv.Src.Start, inv.Src.End(), "", "removed modifier `"+snippet(inv.Src.Text(f.src))+"`", true)
	}
}

// walk visits the body; parent is the enclosing node, inUnchecked whether an
// unchecked block encloses n.
func (f *finder) walk(n, parent *solast.Node, inUnchecked bool) {
	switch n.Type {
	case "UncheckedBlock":
		inUnchecked = true
	case "ArrayTypeName", "ElementaryTypeNameExpression", "InlineAssembly":
		return // lengths and types are not values; assembly is not Solidity
	}
	inBlock := parent != nil && (parent.Type == "Block" || parent.Type == "UncheckedBlock")
	switch n.Type {
	case "ExpressionStatement":
		f.statement(n, inBlock, parent, inUnchecked)
	case "EmitStatement":
		if inBlock {
			f.add(DeleteStatement, n.Src.Start, f.withSemicolon(n), "", "deleted `"+snippet(n.Src.Text(f.src))+"`", false)
		}
	case "BinaryOperation":
		f.binary(n)
	case "Assignment":
		f.assignment(n)
	case "UnaryOperation":
		f.unary(n)
	case "Literal":
		f.literal(n, parent)
	case "MemberAccess":
		f.member(n)
	case "Return":
		f.ret(n)
	}
	for _, c := range n.Children {
		f.walk(c, n, inUnchecked)
	}
}

// withSemicolon is the end of a statement including its `;` (solc's
// statement ranges stop before it).
func (f *finder) withSemicolon(n *solast.Node) int {
	end := n.Src.End()
	i := end
	for i < len(f.src) && isSpace(f.src[i]) {
		i++
	}
	if i < len(f.src) && f.src[i] == ';' {
		return i + 1
	}
	return end
}

func (f *finder) statement(n *solast.Node, inBlock bool, parent *solast.Node, inUnchecked bool) {
	if !inBlock || len(n.Children) == 0 {
		return
	}
	expr := n.Children[0]
	text := n.Src.Text(f.src)
	if callee(expr) == "require" || callee(expr) == "assert" {
		f.add(DropRequire, n.Src.Start, f.withSemicolon(n), "", "deleted `"+snippet(text)+"`", false)
		return
	}
	f.add(DeleteStatement, n.Src.Start, f.withSemicolon(n), "", "deleted `"+snippet(text)+"`", false)
	if f.opts.Checked && !inUnchecked && parent.Type == "Block" && checkedArithmetic(expr) {
		end := f.withSemicolon(n)
		f.add(Unchecked, n.Src.Start, end, "unchecked { "+f.src[n.Src.Start:end]+" }", "wrapped `"+snippet(text)+"` in unchecked", false)
	}
}

// callee names the function a call expression calls, when it is a plain identifier.
func callee(n *solast.Node) string {
	if n.Type != "FunctionCall" || len(n.Children) == 0 {
		return ""
	}
	if c := n.Children[0]; c.Type == "Identifier" {
		return c.Name
	}
	return ""
}

// checkedArithmetic reports whether an expression does arithmetic the
// compiler checks (on integer, non-constant operands).
func checkedArithmetic(n *solast.Node) bool {
	found := false
	n.Walk(func(x *solast.Node) bool {
		if found {
			return false
		}
		switch x.Type {
		case "BinaryOperation":
			op := x.Str("operator")
			found = (op == "+" || op == "-" || op == "*") && isInteger(typeOf(x))
		case "Assignment":
			op := x.Str("operator")
			found = (op == "+=" || op == "-=" || op == "*=") && len(x.Children) > 0 && isInteger(typeOf(x.Children[0]))
		case "UnaryOperation":
			op := x.Str("operator")
			found = (op == "++" || op == "--") && isInteger(typeOf(x))
		}
		return !found
	})
	return found
}

var (
	negated  = map[string]string{"<": ">=", ">=": "<", ">": "<=", "<=": ">", "==": "!=", "!=": "=="}
	shifted  = map[string]string{"<": "<=", "<=": "<", ">": ">=", ">=": ">"}
	arith    = map[string]string{"+": "-", "-": "+", "*": "/", "/": "*", "%": "*"}
	logic    = map[string]string{"&&": "||", "||": "&&"}
	assignOp = map[string]string{"+=": "-=", "-=": "+=", "*=": "/=", "/=": "*="}
)

func (f *finder) binary(n *solast.Node) {
	if len(n.Children) != 2 || isConstant(typeOf(n)) {
		return
	}
	op := n.Str("operator")
	start, end, ok := f.operatorAt(n.Children[0].Src.End(), n.Children[1].Src.Start, op)
	if !ok {
		return
	}
	whole := n.Src.Text(f.src)
	detail := func(to string) string { return fmt.Sprintf("`%s` -> `%s` in `%s`", op, to, snippet(whole)) }
	if to, ok := negated[op]; ok {
		f.add(Relational, start, end, to, detail(to), false)
	}
	if to, ok := shifted[op]; ok {
		f.add(Boundary, start, end, to, detail(to), false)
	}
	if to, ok := arith[op]; ok && isInteger(typeOf(n)) {
		f.add(Arithmetic, start, end, to, detail(to), false)
	}
	if to, ok := logic[op]; ok {
		f.add(Logical, start, end, to, detail(to), false)
	}
}

func (f *finder) assignment(n *solast.Node) {
	op := n.Str("operator")
	to, ok := assignOp[op]
	if !ok || len(n.Children) != 2 || !isInteger(typeOf(n.Children[0])) {
		return
	}
	if start, end, ok := f.operatorAt(n.Children[0].Src.End(), n.Children[1].Src.Start, op); ok {
		f.add(Arithmetic, start, end, to, fmt.Sprintf("`%s` -> `%s` in `%s`", op, to, snippet(n.Src.Text(f.src))), false)
	}
}

func (f *finder) unary(n *solast.Node) {
	op := n.Str("operator")
	text := n.Src.Text(f.src)
	switch op {
	case "!":
		if strings.HasPrefix(text, "!") {
			f.add(Logical, n.Src.Start, n.Src.Start+1, "", "dropped `!` in `"+snippet(text)+"`", false)
		}
	case "++", "--":
		if !isInteger(typeOf(n)) {
			return
		}
		to := map[string]string{"++": "--", "--": "++"}[op]
		i := strings.Index(text, op)
		if i >= 0 {
			f.add(Arithmetic, n.Src.Start+i, n.Src.Start+i+2, to, fmt.Sprintf("`%s` -> `%s` in `%s`", op, to, snippet(text)), false)
		}
	}
}

var decimal = regexp.MustCompile(`^[0-9]+`)

func (f *finder) literal(n, parent *solast.Node) {
	text := n.Src.Text(f.src)
	digits := decimal.FindString(text)
	if digits == "" || len(digits) < len(text) && !isSpace(text[len(digits)]) || parent == nil || isConstant(typeOf(parent)) {
		return // hex, scientific, decimals, or part of a constant expression
	}
	v, ok := new(big.Int).SetString(digits, 10)
	if !ok {
		return
	}
	for _, d := range []int64{1, -1} {
		w := new(big.Int).Add(v, big.NewInt(d))
		if w.Sign() < 0 {
			continue
		}
		f.add(Constant, n.Src.Start, n.Src.Start+len(digits), w.String(),
			fmt.Sprintf("`%s` -> `%s`", snippet(text), w.String()+text[len(digits):]), false)
	}
}

func (f *finder) member(n *solast.Node) {
	if len(n.Children) != 1 || n.Children[0].Type != "Identifier" {
		return
	}
	base, member := n.Children[0].Name, n.MemberName()
	switch {
	case base == "msg" && member == "sender":
		f.add(SenderOrigin, n.Src.Start, n.Src.End(), "tx.origin", "`msg.sender` -> `tx.origin`", false)
	case base == "tx" && member == "origin":
		f.add(SenderOrigin, n.Src.Start, n.Src.End(), "msg.sender", "`tx.origin` -> `msg.sender`", false)
	}
}

func (f *finder) ret(n *solast.Node) {
	if len(n.Children) == 0 {
		return
	}
	e := n.Children[0]
	text := e.Src.Text(f.src)
	typ := typeOf(e)
	var to string
	switch {
	case text == "true" || text == "false":
		to = map[string]string{"true": "false", "false": "true"}[text]
	case typ == "bool":
		to = "!(" + text + ")"
	case isInteger(typ) || strings.HasPrefix(typ, "int_const"):
		to = "(" + text + ") + 1"
	default:
		return
	}
	f.add(ReturnValue, e.Src.Start, e.Src.End(), to, fmt.Sprintf("return `%s` -> `%s`", snippet(text), snippet(to)), false)
}

// operatorAt finds op between two operands (skipping blanks and comments).
func (f *finder) operatorAt(from, to int, op string) (int, int, bool) {
	if from < 0 || to > len(f.src) || from > to || op == "" {
		return 0, 0, false
	}
	i := strings.Index(f.src[from:to], op)
	if i < 0 {
		return 0, 0, false
	}
	return from + i, from + i + len(op), true
}

// typeOf is an expression's type as solc prints it (compact
// typeDescriptions.typeString, legacy "type").
func typeOf(n *solast.Node) string {
	if td, ok := n.Attrs["typeDescriptions"].(map[string]any); ok {
		if s, ok := td["typeString"].(string); ok {
			return s
		}
	}
	return n.Str("type")
}

func isInteger(t string) bool {
	return strings.HasPrefix(t, "uint") || strings.HasPrefix(t, "int") && !strings.HasPrefix(t, "int_const")
}

func isConstant(t string) bool {
	return strings.HasPrefix(t, "int_const") || strings.HasPrefix(t, "rational_const") || strings.HasPrefix(t, "literal_string")
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// snippet is a one-line excerpt for details.
func snippet(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 60 {
		s = string(r[:57]) + "..."
	}
	return s
}
