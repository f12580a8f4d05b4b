package dcrgraph

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Guard is a compiled guard expression: a Solidity boolean expression over
// the contract's state, with the relation's constants already folded in.
type Guard struct {
	src  string
	root node
	vars []string
}

// maxDepth bounds the depth of a guard's tree; maxParseDepth bounds the
// parser's recursion, which the fully parenthesised rendering of a tree of
// maxDepth needs about three times over, so String() always parses back.
const (
	maxDepth      = 200
	maxParseDepth = 1000
)

// ParseGuard compiles a guard that names no compile-time constants.
func ParseGuard(src string) (*Guard, error) { return CompileGuard(src, nil) }

// CompileGuard parses src and resolves the identifiers it names: first
// against constants (name -> value expression, as a relation's `constants`
// holds them; a constant may name other constants but no state), then as
// state variables read at evaluation time.
func CompileGuard(src string, constants map[string]string) (*Guard, error) {
	p, err := newParser(src, newConstResolver(constants))
	if err != nil {
		return nil, err
	}
	root, err := p.parseAll()
	if err != nil {
		return nil, err
	}
	return &Guard{src: src, root: root, vars: slices.Sorted(maps.Keys(p.vars))}, nil
}

// Source returns the guard as written.
func (g *Guard) Source() string { return g.src }

// String renders the guard fully parenthesised, constants by name and
// literals in decimal, so the parse tree is visible and the text parses back
// to the same tree.
func (g *Guard) String() string {
	var b strings.Builder
	g.root.write(&b)
	return b.String()
}

// StateVars lists, sorted, the state variables and mappings the guard reads:
// what an implementation of State must be able to answer for it.
func (g *Guard) StateVars() []string { return slices.Clone(g.vars) }

// Eval computes the guard's value on s.
func (g *Guard) Eval(s State) (Value, error) { return g.root.eval(s) }

// Holds evaluates the guard and requires a bool.
func (g *Guard) Holds(s State) (bool, error) {
	v, err := g.root.eval(s)
	if err != nil {
		return false, err
	}
	b, ok := v.Bool()
	if !ok {
		return false, fmt.Errorf("guard yields %s, not bool", v.Kind())
	}
	return b, nil
}

// constResolver evaluates a relation's constants lazily, once each,
// detecting cycles such as {A: "B", B: "A"}.
type constResolver struct {
	raw  map[string]string
	done map[string]Value
	busy map[string]bool
}

func newConstResolver(raw map[string]string) *constResolver {
	return &constResolver{raw: raw, done: map[string]Value{}, busy: map[string]bool{}}
}

func (r *constResolver) lookup(name string) (Value, bool, error) {
	src, ok := r.raw[name]
	if !ok {
		return Value{}, false, nil
	}
	if v, ok := r.done[name]; ok {
		return v, true, nil
	}
	if r.busy[name] {
		return Value{}, true, fmt.Errorf("constant %s is defined in terms of itself", name)
	}
	r.busy[name] = true
	defer delete(r.busy, name)
	v, err := r.evaluate(name, src)
	if err != nil {
		return Value{}, true, err
	}
	r.done[name] = v
	return v, true, nil
}

func (r *constResolver) evaluate(name, src string) (Value, error) {
	p, err := newParser(src, r)
	if err != nil {
		return Value{}, fmt.Errorf("constant %s = %q: %w", name, src, err)
	}
	root, err := p.parseAll()
	if err != nil {
		return Value{}, fmt.Errorf("constant %s = %q: %w", name, src, err)
	}
	if p.readsState {
		return Value{}, fmt.Errorf("constant %s = %q reads contract state", name, src)
	}
	v, err := root.eval(nil)
	if err != nil {
		return Value{}, fmt.Errorf("constant %s = %q: %w", name, src, err)
	}
	return v, nil
}

type parser struct {
	toks       []token
	pos        int
	depth      int
	consts     *constResolver
	vars       map[string]bool
	readsState bool
}

func newParser(src string, consts *constResolver) (*parser, error) {
	if strings.TrimSpace(src) == "" {
		return nil, errors.New("empty guard")
	}
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	return &parser{toks: toks, consts: consts, vars: map[string]bool{}}, nil
}

func (p *parser) parseAll() (node, error) {
	n, err := p.expr(0)
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tokEOF {
		return nil, p.errAt(t, "unexpected %q", t.text)
	}
	if treeDepth(n) > maxDepth {
		return nil, fmt.Errorf("guard nests deeper than %d", maxDepth)
	}
	return n, nil
}

// binaryPrec is Solidity's operator precedence, lowest first; `**` is the
// only right-associative operator (as since Solidity 0.8).
var binaryPrec = map[string]int{
	"||": 1, "&&": 2,
	"==": 3, "!=": 3,
	"<": 4, "<=": 4, ">": 4, ">=": 4,
	"+": 5, "-": 5,
	"*": 6, "/": 6, "%": 6,
	"**": 7,
}

// nest counts one more level of recursion, refusing one past maxParseDepth
// (the error names maxDepth, the bound users can rely on); unnest undoes it.
func (p *parser) nest() error {
	if p.depth++; p.depth > maxParseDepth {
		return fmt.Errorf("guard nests deeper than %d", maxDepth)
	}
	return nil
}

func (p *parser) unnest() { p.depth-- }

// expr is a Pratt loop: it parses operators binding at least as tightly as
// minPrec.
func (p *parser) expr(minPrec int) (node, error) {
	if err := p.nest(); err != nil {
		return nil, err
	}
	defer p.unnest()
	left, err := p.unary()
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		prec, ok := binaryPrec[t.text]
		if t.kind != tokOp || !ok || prec < minPrec {
			return left, nil
		}
		p.pos++
		next := prec + 1
		if t.text == "**" {
			next = prec
		}
		right, err := p.expr(next)
		if err != nil {
			return nil, err
		}
		left = &binaryNode{op: t.text, l: left, r: right}
	}
}

// unary parses prefix `!` and `-`, which in Solidity bind tighter than `**`.
func (p *parser) unary() (node, error) {
	t := p.peek()
	if t.kind == tokOp && (t.text == "!" || t.text == "-") {
		p.pos++
		if err := p.nest(); err != nil {
			return nil, err
		}
		defer p.unnest()
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		return &unaryNode{op: t.text, x: x}, nil
	}
	return p.primary()
}

func (p *parser) primary() (node, error) {
	t := p.next()
	switch t.kind {
	case tokNum:
		return p.number(t)
	case tokIdent:
		return p.identifier(t)
	case tokEOF:
		return nil, p.errAt(t, "unexpected end of guard")
	}
	if t.text != "(" {
		return nil, p.errAt(t, "unexpected %q", t.text)
	}
	x, err := p.expr(0)
	if err != nil {
		return nil, err
	}
	return x, p.expectOp(")")
}

// number parses a literal and the unit that may follow it (`2 ether`).
func (p *parser) number(t token) (node, error) {
	text := t.text
	unit := units[p.peek().text]
	if unit != nil && p.peek().kind == tokIdent {
		p.pos++
	}
	n, addr, err := parseNumber(text, unit)
	if err != nil {
		return nil, p.errAt(t, "%v", err)
	}
	if addr {
		v, _ := intToAddress(n)
		return &literalNode{v: v}, nil
	}
	return &literalNode{v: IntValue(n)}, nil
}

func (p *parser) identifier(t token) (node, error) {
	switch t.text {
	case "true", "false":
		return &literalNode{v: BoolValue(t.text == "true")}, nil
	case "now":
		return p.stateful(&blockNode{}), nil
	case "msg":
		return p.member(t, map[string]node{"sender": &senderNode{}})
	case "block":
		return p.member(t, map[string]node{"timestamp": &blockNode{}, "number": &blockNode{number: true}})
	case "this":
		return p.thisExpr()
	case "address", "payable":
		return p.addressCast(t)
	case "type":
		return p.typeBound(t)
	}
	if _, ok := intTypeBits(t.text); ok && p.peekOp("(") {
		return p.intCast(t)
	}
	if units[t.text] != nil {
		return nil, p.errAt(t, "unit %q must follow a number", t.text)
	}
	return p.named(t)
}

// member parses `X.name` for the globals msg and block.
func (p *parser) member(t token, fields map[string]node) (node, error) {
	if err := p.expectOp("."); err != nil {
		return nil, err
	}
	f := p.next()
	n, ok := fields[f.text]
	if !ok || f.kind != tokIdent {
		return nil, p.errAt(f, "%s.%s is not supported in guards", t.text, f.text)
	}
	return p.stateful(n), nil
}

// thisExpr handles `this.balance` (Solidity 0.4), `this.x` / `this.x()`
// (the getter of state variable x) and bare `this`.
func (p *parser) thisExpr() (node, error) {
	if !p.peekOp(".") {
		return p.stateful(&thisNode{}), nil
	}
	p.pos++
	f := p.next()
	if f.kind != tokIdent {
		return nil, p.errAt(f, "expected a name after this.")
	}
	if f.text == "balance" {
		return p.stateful(&balanceNode{}), nil
	}
	return p.stateVar(f)
}

// addressCast parses address(x) / payable(x), and address(this).balance.
func (p *parser) addressCast(t token) (node, error) {
	x, err := p.callArgument()
	if err != nil {
		return nil, err
	}
	if _, isThis := x.(*thisNode); isThis && p.peekOp(".") {
		p.pos++
		f := p.next()
		if f.text != "balance" {
			return nil, p.errAt(f, "address(this).%s is not supported in guards", f.text)
		}
		return &balanceNode{}, nil
	}
	if p.peekOp(".") {
		return nil, p.errAt(p.peek(), "member access on an address is not supported (only address(this).balance)")
	}
	return &castNode{to: "address", x: x}, nil
}

func (p *parser) intCast(t token) (node, error) {
	x, err := p.callArgument()
	if err != nil {
		return nil, err
	}
	return &castNode{to: t.text, x: x}, nil
}

// typeBound parses type(uintN).max and type(intN).min into a literal.
func (p *parser) typeBound(t token) (node, error) {
	if err := p.expectOp("("); err != nil {
		return nil, err
	}
	ty := p.next()
	bits, ok := intTypeBits(ty.text)
	if !ok {
		return nil, p.errAt(ty, "type(%s) is not supported in guards", ty.text)
	}
	if err := p.expectOp(")"); err != nil {
		return nil, err
	}
	if err := p.expectOp("."); err != nil {
		return nil, err
	}
	f := p.next()
	lo, hi := intRange(strings.HasPrefix(ty.text, "int"), bits)
	switch f.text {
	case "max":
		return &literalNode{v: IntValue(hi)}, nil
	case "min":
		return &literalNode{v: IntValue(lo)}, nil
	}
	return nil, p.errAt(f, "type(%s).%s is not supported in guards", ty.text, f.text)
}

// callArgument parses `( expr )` after a conversion name.
func (p *parser) callArgument() (node, error) {
	if err := p.expectOp("("); err != nil {
		return nil, err
	}
	x, err := p.expr(0)
	if err != nil {
		return nil, err
	}
	return x, p.expectOp(")")
}

// named resolves a plain identifier: a constant, else a state variable, a
// single-key mapping lookup `m[key]`, or a getter call `x()`.
func (p *parser) named(t token) (node, error) {
	v, isConst, err := p.consts.lookup(t.text)
	if err != nil {
		return nil, p.errAt(t, "%v", err)
	}
	if isConst {
		if p.peekOp("[") || p.peekOp("(") {
			return nil, p.errAt(t, "constant %s cannot be indexed or called", t.text)
		}
		return &constNode{name: t.text, v: v}, nil
	}
	if p.peekOp("[") {
		return p.mapping(t)
	}
	return p.stateVar(t)
}

func (p *parser) stateVar(t token) (node, error) {
	call := false
	if p.peekOp("(") {
		p.pos++
		if err := p.expectOp(")"); err != nil {
			return nil, p.errAt(t, "only getters without arguments can be called in guards: %v", err)
		}
		call = true
	}
	if p.peekOp(".") {
		return nil, p.errAt(p.peek(), "member access %s.%s is not supported in guards", t.text, p.toks[p.pos+1].text)
	}
	if p.peekOp("[") {
		return nil, p.errAt(p.peek(), "%s cannot be indexed here", t.text)
	}
	p.vars[t.text] = true
	return p.stateful(&varNode{name: t.text, call: call}), nil
}

func (p *parser) mapping(t token) (node, error) {
	p.pos++ // [
	key, err := p.expr(0)
	if err != nil {
		return nil, err
	}
	if err := p.expectOp("]"); err != nil {
		return nil, err
	}
	if p.peekOp("[") {
		return nil, p.errAt(p.peek(), "nested mapping lookups (%s[..][..]) are not supported in guards", t.text)
	}
	if p.peekOp(".") {
		return nil, p.errAt(p.peek(), "member access on %s[..] is not supported in guards", t.text)
	}
	p.vars[t.text] = true
	return p.stateful(&mappingNode{name: t.text, key: key}), nil
}

// stateful marks that the expression reads the contract, which a constant
// may not do.
func (p *parser) stateful(n node) node {
	p.readsState = true
	return n
}

func (p *parser) peek() token { return p.toks[p.pos] }

func (p *parser) next() token {
	t := p.toks[p.pos]
	if t.kind != tokEOF {
		p.pos++
	}
	return t
}

func (p *parser) peekOp(op string) bool {
	t := p.peek()
	return t.kind == tokOp && t.text == op
}

func (p *parser) expectOp(op string) error {
	t := p.next()
	if t.kind != tokOp || t.text != op {
		if t.kind == tokEOF {
			return p.errAt(t, "expected %q, got end of guard", op)
		}
		return p.errAt(t, "expected %q, got %q", op, t.text)
	}
	return nil
}

func (p *parser) errAt(t token, format string, args ...any) error {
	return fmt.Errorf("offset %d: %s", t.pos, fmt.Sprintf(format, args...))
}

func treeDepth(n node) int {
	switch n := n.(type) {
	case *unaryNode:
		return 1 + treeDepth(n.x)
	case *castNode:
		return 1 + treeDepth(n.x)
	case *mappingNode:
		return 1 + treeDepth(n.key)
	case *binaryNode:
		return 1 + max(treeDepth(n.l), treeDepth(n.r))
	}
	return 1
}
