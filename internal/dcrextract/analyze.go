package dcrextract

import (
	"strings"

	"github.com/solbehave/solbehave/internal/solast"
)

// varKey names a piece of contract state: a state variable, or one field of
// the structs it holds (locks[id].released is {locks, released}). The
// contract's ether balance is the pseudo-variable balanceVar.
type varKey struct {
	v, field string
}

const balanceVar = "$balance"

// overlaps says whether a write to k can change what a read of o sees.
func (k varKey) overlaps(o varKey) bool {
	return k.v == o.v && (k.field == "" || o.field == "" || k.field == o.field)
}

func (k varKey) String() string {
	if k.field == "" {
		return k.v
	}
	return k.v + "." + k.field
}

// writeKind classifies a state write by what it can establish.
type writeKind uint8

const (
	wSet     writeKind = iota // any new value
	wInc                      // +=, ++, .add(), push
	wDec                      // -=, --, .sub(), pop, length -= 1
	wClear                    // = 0, delete
	wTrue                     // bool = true
	wFalse                    // bool = false
	wBoolArg                  // bool = <expression>: either value
)

type write struct {
	key   varKey
	kind  writeKind
	whole bool // writes a whole struct (a new entry), not the field itself
	cond  bool // only on some paths (inside an if)
	seq   int
}

// clauseKind is what a precondition conjunct is about.
type clauseKind uint8

const (
	cValue clauseKind = iota // a comparison over state
	cGate                    // a boolean state flag must have a value
	cRole                    // msg.sender compared with an address state variable
	cTime                    // reads the block's time or number
	cOr                      // a disjunction: no single write establishes it
)

// clause is one conjunct of a function's precondition.
type clause struct {
	kind    clauseKind
	expr    *solast.Node
	sc      *scope
	negated bool
	seq     int
	role    string // cRole: "owner" when the variable holds the deployer
	gate    gate
	reads   []polarRead
}

// gate is a boolean flag a function requires: key must equal want.
type gate struct {
	key         varKey
	want        bool // numeric gates: whether the value must be non-zero
	numeric     bool // `x == 0` on a number or address: a flag "x is set"
	mapping     bool // the flag is per key (a mapping or struct entry)
	senderKeyed bool // indexed by msg.sender
}

// polarRead is a state read inside a comparison with the direction a change
// must take to help the comparison hold: +1 larger, -1 smaller, 0 any value.
type polarRead struct {
	key varKey
	pol int
}

// summary is what one entry point does on its success path.
type summary struct {
	clauses      []clause
	writes       []write
	sendsBalance bool // sends address(this).balance out
	sendsEther   bool // sends ether out (any amount)
	failBranch   bool // can revert or return a refusal
}

// scope binds parameters and locals to the expressions they stand for.
type scope struct {
	binds  map[int]binding
	params map[int]int // entry parameter declaration id -> position
}

type binding struct {
	expr *solast.Node
	sc   *scope
}

// enter is the scope of fn's body (a function, modifier or constructor)
// called from s: fn's parameters bound to args, which stay evaluated in s;
// the entry's parameters are still s's.
func (s *scope) enter(fn *solast.Node, args []*solast.Node) *scope {
	inner := &scope{binds: map[int]binding{}, params: s.params}
	for j, p := range paramDecls(fn) {
		if j < len(args) {
			inner.binds[p.ID] = binding{expr: args[j], sc: s}
		}
	}
	return inner
}

func (s *scope) lookup(id int) (binding, bool) {
	if s == nil {
		return binding{}, false
	}
	b, ok := s.binds[id]
	return b, ok
}

// analyzer walks one entry point, inlining modifiers and internal calls.
type analyzer struct {
	m    *model
	sum  *summary
	seq  int
	inIf int // depth of if branches: writes there happen on some paths only
	// idempotent holds, per enclosing if, the flag its condition says is
	// not yet set (`if (!done[x]) { done[x] = true; }` sets it on every path).
	idempotent []*gate
	stack      map[int]bool // functions being inlined (recursion guard)
	depth      int
}

const maxInlineDepth = 8

func (m *model) summarize(e entry) *summary {
	a := &analyzer{m: m, sum: &summary{}, stack: map[int]bool{}}
	sc := &scope{binds: map[int]binding{}, params: map[int]int{}}
	for i, p := range paramDecls(e.node) {
		sc.params[p.ID] = i
	}
	a.function(e.node, sc, false)
	if e.payable {
		a.sum.writes = append(a.sum.writes, write{key: varKey{v: balanceVar}, kind: wInc, seq: a.next()})
	}
	return a.sum
}

func (a *analyzer) next() int { a.seq++; return a.seq }

// function walks fn's modifiers and body in execution order.
func (a *analyzer) function(fn *solast.Node, sc *scope, cond bool) {
	if a.stack[fn.ID] || a.depth > maxInlineDepth {
		return
	}
	a.stack[fn.ID] = true
	a.depth++
	defer func() { delete(a.stack, fn.ID); a.depth-- }()
	a.modifiers(fn, invocations(fn), 0, sc, cond)
}

func invocations(fn *solast.Node) []*solast.Node {
	var out []*solast.Node
	for _, c := range fn.Children {
		if c.Type == "ModifierInvocation" {
			out = append(out, c)
		}
	}
	return out
}

// modifiers runs invocation i's body, whose placeholder runs the rest.
func (a *analyzer) modifiers(fn *solast.Node, invs []*solast.Node, i int, sc *scope, cond bool) {
	if i == len(invs) {
		a.block(fn.Child("body"), sc, cond)
		return
	}
	inv := invs[i]
	name := operand(inv, "modifierName", 0)
	var def *solast.Node
	if name != nil {
		def = a.m.modifiers[name.Name]
		if def == nil && name.Name == "" {
			def = a.m.modifiers[name.Str("name")]
		}
	}
	if def == nil { // a base constructor call, or unknown
		a.modifiers(fn, invs, i+1, sc, cond)
		return
	}
	msc := sc.enter(def, operands(inv, "arguments", 1))
	body := def.Child("body")
	if body == nil {
		a.modifiers(fn, invs, i+1, sc, cond)
		return
	}
	a.statements(body, msc, cond, func() { a.modifiers(fn, invs, i+1, sc, cond) })
}

func paramDecls(fn *solast.Node) []*solast.Node {
	if fn == nil { // a contract without a constructor
		return nil
	}
	list := fn.Child("parameters")
	if list == nil {
		return nil
	}
	var out []*solast.Node
	for _, c := range list.Children {
		if c.Type == "VariableDeclaration" {
			out = append(out, c)
		}
	}
	return out
}

func (a *analyzer) block(b *solast.Node, sc *scope, cond bool) {
	if b != nil {
		a.statements(b, sc, cond, nil)
	}
}

// statements walks a block; placeholder is what `_;` runs in a modifier.
func (a *analyzer) statements(b *solast.Node, sc *scope, cond bool, placeholder func()) {
	stmts := b.Children
	if b.Type != "Block" && b.Type != "UncheckedBlock" {
		stmts = []*solast.Node{b}
	}
	for i, s := range stmts {
		if s.Type == "IfStatement" && !cond && a.guardIf(s, stmts[i+1:], sc) {
			continue
		}
		a.statement(s, sc, cond, placeholder)
	}
}

func (a *analyzer) statement(s *solast.Node, sc *scope, cond bool, placeholder func()) {
	switch s.Type {
	case "PlaceholderStatement":
		if placeholder != nil {
			placeholder()
		}
	case "Block", "UncheckedBlock":
		a.statements(s, sc, cond, placeholder)
	case "ExpressionStatement":
		a.expression(operand(s, "expression", 0), sc, cond)
	case "VariableDeclarationStatement":
		a.declaration(s, sc, cond)
	case "IfStatement":
		condition := operand(s, "condition", 0)
		a.expression(condition, sc, cond)
		a.inIf++
		for i, body := range s.Children[1:] {
			if i == 0 {
				a.idempotent = append(a.idempotent, a.unsetGate(condition, sc))
			}
			a.statements(body, sc, true, placeholder)
			if i == 0 {
				a.idempotent = a.idempotent[:len(a.idempotent)-1]
			}
		}
		a.inIf--
	case "ForStatement", "WhileStatement", "DoWhileStatement":
		for _, c := range s.Children {
			if isStatement(c) {
				a.statements(c, sc, true, placeholder)
			} else {
				a.expression(c, sc, true)
			}
		}
	case "Return":
		a.expression(operand(s, "expression", 0), sc, cond)
	case "Throw", "RevertStatement":
		a.sum.failBranch = true
	case "EmitStatement", "InlineAssembly", "Break", "Continue":
	default:
		for _, c := range s.Children {
			a.expression(c, sc, cond)
		}
	}
}

func isStatement(n *solast.Node) bool {
	return n.Type == "Block" || strings.HasSuffix(n.Type, "Statement") || n.Type == "Return" || n.Type == "Throw"
}

func (a *analyzer) declaration(s *solast.Node, sc *scope, cond bool) {
	if init := bindLocal(s, sc); init != nil {
		a.expression(init, sc, cond)
	}
}

// bindLocal binds a declaration statement's one local to its initial
// value in sc and returns that value (nil without one).
func bindLocal(s *solast.Node, sc *scope) *solast.Node {
	var decls []*solast.Node
	var init *solast.Node
	for _, c := range s.Children {
		if c.Type == "VariableDeclaration" && c.Field != "initialValue" {
			decls = append(decls, c)
		} else {
			init = c
		}
	}
	if init != nil && len(decls) == 1 {
		sc.binds[decls[0].ID] = binding{expr: init, sc: sc}
	}
	return init
}

// guardIf recognises the two refusal shapes of an if at the top of a body:
// `if (bad) { revert / throw / return; }` and `if (ok) { ... return x; }
// return false;`. It records the clause and reports whether it handled the
// statement.
func (a *analyzer) guardIf(s *solast.Node, rest []*solast.Node, sc *scope) bool {
	condition := operand(s, "condition", 0)
	trueBody := operand(s, "trueBody", 1)
	if condition == nil || trueBody == nil || operand(s, "falseBody", 2) != nil {
		return false
	}
	if exits(trueBody) {
		a.sum.failBranch = true
		a.expression(condition, sc, false)
		a.addClause(condition, sc, true)
		return true
	}
	if endsInReturn(trueBody) && refusesAfter(rest) {
		a.sum.failBranch = true
		a.expression(condition, sc, false)
		a.addClause(condition, sc, false)
		a.statements(trueBody, sc, false, nil)
		return true
	}
	return false
}

// exits: a body that only refuses (revert, throw, a bare return or return false).
func exits(body *solast.Node) bool {
	stmts := body.Children
	if body.Type != "Block" {
		stmts = []*solast.Node{body}
	}
	if len(stmts) != 1 {
		return false
	}
	s := stmts[0]
	switch s.Type {
	case "Throw", "RevertStatement":
		return true
	case "Return":
		e := operand(s, "expression", 0)
		return e == nil || (e.Type == "Literal" && literalValue(e) == "false")
	case "ExpressionStatement":
		e := operand(s, "expression", 0)
		return e != nil && e.Type == "FunctionCall" && isNamed(operand(e, "expression", 0), "revert")
	}
	return false
}

func endsInReturn(body *solast.Node) bool {
	if body.Type != "Block" || len(body.Children) == 0 {
		return body.Type == "Return"
	}
	return body.Children[len(body.Children)-1].Type == "Return"
}

func refusesAfter(rest []*solast.Node) bool {
	for _, s := range rest {
		if s.Type == "Return" {
			e := operand(s, "expression", 0)
			return e != nil && e.Type == "Literal" && literalValue(e) == "false"
		}
	}
	return false
}

func isNamed(n *solast.Node, name string) bool {
	return n != nil && n.Type == "Identifier" && n.Name == name
}

// builtin: an identifier bound to a global (require, now, msg): solc gives
// globals negative ids from 0.5, and before that ids outside the sources.
func (m *model) builtin(n *solast.Node) bool {
	id := n.RefDecl()
	return id < 0 || m.nodes[id] == nil
}

// expression walks an expression for writes, sends, requires and calls.
func (a *analyzer) expression(n *solast.Node, sc *scope, cond bool) {
	if n == nil {
		return
	}
	switch n.Type {
	case "Assignment":
		a.assignment(n, sc)
		a.expression(operand(n, "rightHandSide", 1), sc, cond)
		a.indexReads(operand(n, "leftHandSide", 0), sc, cond)
		return
	case "UnaryOperation":
		if a.unaryWrite(n, sc) {
			return
		}
	case "FunctionCall":
		if a.call(n, sc, cond) {
			return
		}
	}
	for _, c := range n.Children {
		a.expression(c, sc, cond)
	}
}

// indexReads walks the index expressions of an lvalue (they may call).
func (a *analyzer) indexReads(n *solast.Node, sc *scope, cond bool) {
	for n != nil && (n.Type == "IndexAccess" || n.Type == "MemberAccess") {
		if n.Type == "IndexAccess" {
			a.expression(operand(n, "indexExpression", 1), sc, cond)
			n = operand(n, "baseExpression", 0)
		} else {
			n = operand(n, "expression", 0)
		}
	}
}

func (a *analyzer) assignment(n *solast.Node, sc *scope) {
	lhs, rhs := operand(n, "leftHandSide", 0), operand(n, "rightHandSide", 1)
	if operator(n) == "=" {
		a.bindLocal(lhs, rhs, sc)
	}
	key, whole, ok := a.stateKey(lhs, sc)
	if !ok {
		return
	}
	kind := wSet
	switch operator(n) {
	case "+=", "*=", "|=":
		kind = wInc
	case "-=", "/=", "&=":
		kind = wDec
	case "=":
		kind = a.assignedKind(key, lhs, rhs, sc)
	}
	if a.fieldWrites(key, lhs, rhs, sc) {
		return
	}
	a.sum.writes = append(a.sum.writes, write{key: key, kind: kind, whole: whole, cond: a.conditional(key, kind), seq: a.next()})
}

// conditional: a write inside an if, unless the if only skips it when the
// flag already has the value written.
func (a *analyzer) conditional(key varKey, kind writeKind) bool {
	if a.inIf == 0 {
		return false
	}
	if a.inIf == len(a.idempotent) {
		if g := a.idempotent[len(a.idempotent)-1]; g != nil && g.key == key &&
			((kind == wTrue && !g.want) || (kind == wFalse && g.want)) {
			return false
		}
	}
	return true
}

// unsetGate reads an if condition as "flag == want" (nil when it is not).
func (a *analyzer) unsetGate(condition *solast.Node, sc *scope) *gate {
	if condition == nil {
		return nil
	}
	c := a.m.classify(solast.Unparen(condition), sc, false, 0)
	if c.kind != cGate {
		return nil
	}
	g := c.gate
	return &g
}

// bindLocal follows `x = expr` for locals and return variables, so a later
// use of x stands for expr (lockId = lockCount).
func (a *analyzer) bindLocal(lhs, rhs *solast.Node, sc *scope) {
	if lhs == nil || rhs == nil || lhs.Type != "Identifier" || a.m.vars[lhs.RefDecl()] != nil || sc == nil {
		return
	}
	if _, isParam := sc.params[lhs.RefDecl()]; !isParam {
		sc.binds[lhs.RefDecl()] = binding{expr: rhs, sc: sc}
	}
}

// fieldWrites splits `m[k] = S({f: v, ...})` into one write per field when
// k is not a fresh key drawn from a state counter (a new record's fields
// say nothing about existing ones); it reports whether it did.
func (a *analyzer) fieldWrites(key varKey, lhs, rhs *solast.Node, sc *scope) bool {
	if key.field != "" || rhs == nil || rhs.Type != "FunctionCall" || !strings.HasPrefix(typeString(rhs), "struct ") {
		return false
	}
	for _, ix := range a.m.indexes(lhs, sc) {
		if ix != nil && ix.Type == "Identifier" && a.m.vars[ix.RefDecl()] != nil {
			return false // keyed by a counter: a new entry
		}
	}
	names, values := a.m.structFields(rhs)
	if len(names) == 0 {
		return false
	}
	for i, name := range names {
		kind := wSet
		v := solast.Unparen(values[i])
		switch {
		case v.Type == "Literal" && literalValue(v) == "true":
			kind = wTrue
		case v.Type == "Literal" && literalValue(v) == "false":
			kind = wFalse
		case isZero(v):
			kind = wClear
		case typeString(v) == "bool":
			kind = wBoolArg
		}
		fk := varKey{v: key.v, field: name}
		a.sum.writes = append(a.sum.writes, write{key: fk, kind: kind, cond: a.conditional(fk, kind), seq: a.next()})
	}
	return true
}

// assignedKind classifies `x = rhs`.
func (a *analyzer) assignedKind(key varKey, lhs, rhs *solast.Node, sc *scope) writeKind {
	if typeString(lhs) == "bool" {
		if rhs != nil && rhs.Type == "Literal" {
			if literalValue(rhs) == "true" {
				return wTrue
			}
			return wFalse
		}
		return wBoolArg
	}
	rhs, rsc := resolveLocal(rhs, sc) // tokenId = totalSupply + 1; totalSupply = tokenId
	if rsc != nil {
		sc = rsc
	}
	switch {
	case rhs == nil:
		return wSet
	case isZero(rhs):
		return wClear
	case rhs.Type == "FunctionCall":
		callee := operand(rhs, "expression", 0)
		if callee != nil && callee.Type == "MemberAccess" {
			if base, _, ok := a.stateKey(operand(callee, "expression", 0), sc); ok && base == key {
				switch callee.MemberName() {
				case "add", "safeAdd", "plus", "mul":
					return wInc
				case "sub", "safeSub", "minus", "div":
					return wDec
				}
			}
		}
	case rhs.Type == "BinaryOperation":
		if base, _, ok := a.stateKey(operand(rhs, "leftExpression", 0), sc); ok && base == key {
			switch operator(rhs) {
			case "+", "*":
				return wInc
			case "-", "/":
				return wDec
			}
		}
	}
	return wSet
}

func isZero(n *solast.Node) bool {
	switch n.Type {
	case "Literal":
		v := literalValue(n)
		return v == "0" || v == "0x0" || strings.Trim(strings.TrimPrefix(v, "0x"), "0") == "" && v != ""
	case "FunctionCall":
		if isTypeConversion(n) {
			args := operands(n, "arguments", 1)
			return len(args) == 1 && isZero(args[0])
		}
	}
	return false
}

func (a *analyzer) unaryWrite(n *solast.Node, sc *scope) bool {
	var kind writeKind
	switch operator(n) {
	case "++":
		kind = wInc
	case "--":
		kind = wDec
	case "delete":
		kind = wClear
	default:
		return false
	}
	sub := operand(n, "subExpression", 0)
	if key, whole, ok := a.stateKey(sub, sc); ok {
		a.sum.writes = append(a.sum.writes, write{key: key, kind: kind, whole: whole && kind != wClear, cond: a.inIf > 0, seq: a.next()})
	}
	a.indexReads(sub, sc, true)
	return true
}

// call handles require/assert/revert, ether sends, array pushes and
// internal calls (inlined); it reports whether the children are walked.
func (a *analyzer) call(n *solast.Node, sc *scope, cond bool) bool {
	callee := operand(n, "expression", 0)
	args := operands(n, "arguments", 1)
	if callee == nil {
		return false
	}
	if callee.Type == "Identifier" && a.m.builtin(callee) {
		switch callee.Name {
		case "require", "assert":
			for _, arg := range args {
				a.expression(arg, sc, cond)
			}
			a.sum.failBranch = true
			if !cond && len(args) > 0 {
				a.addClause(args[0], sc, false)
			}
			return true
		case "revert":
			a.sum.failBranch = true
			return true
		}
	}
	if a.send(n, callee, args, sc) {
		return false
	}
	if callee.Type == "MemberAccess" {
		if a.arrayWrite(callee, sc) {
			return false
		}
	}
	if fn := a.m.callTarget(callee); fn != nil {
		for _, arg := range args {
			a.expression(arg, sc, cond)
		}
		if a.m.libraryFuncs[fn.ID] {
			a.sum.failBranch = true // SafeMath & co. revert on overflow
			if callee.Type == "MemberAccess" {
				a.expression(operand(callee, "expression", 0), sc, cond)
			}
			return true
		}
		a.function(fn, sc.enter(fn, args), cond)
		return true
	}
	return false
}

// callTarget resolves a call to a function of the contract (internal or
// public called internally), taking the most derived override.
func (m *model) callTarget(callee *solast.Node) *solast.Node {
	var id int
	switch callee.Type {
	case "Identifier":
		id = callee.RefDecl()
	case "MemberAccess":
		base := operand(callee, "expression", 0)
		if base == nil || base.Type != "Identifier" {
			id = callee.RefDecl()
			if fn := m.funcs[id]; fn != nil && m.libraryFuncs[id] {
				return fn
			}
			return nil
		}
		id = callee.RefDecl()
		switch {
		case m.libraryFuncs[id]:
			return m.funcs[id] // SafeMath.add(a, b), or a.add(b) through `using for`
		case base.Name == "super":
			return m.funcs[id] // the base's own definition, not the override
		}
		return nil // this.f(), token.f(): external calls, not inlined
	default:
		return nil
	}
	fn := m.funcs[id]
	if fn == nil || m.libraryFuncs[id] {
		return fn
	}
	return m.override(fn)
}

// override finds the most derived function with fn's name and arity.
func (m *model) override(fn *solast.Node) *solast.Node {
	arity := len(paramDecls(fn))
	for _, c := range m.linearization() {
		for _, f := range c.Children {
			if f.Type == "FunctionDefinition" && f.Name == fn.Name && len(paramDecls(f)) == arity && f.Child("body") != nil {
				return f
			}
		}
	}
	return fn
}

// send records ether leaving the contract; it reports whether n is a send.
func (a *analyzer) send(n, callee *solast.Node, args []*solast.Node, sc *scope) bool {
	var amount *solast.Node
	switch {
	case callee.Type == "MemberAccess" && (callee.MemberName() == "transfer" || callee.MemberName() == "send") &&
		strings.HasPrefix(typeString(operand(callee, "expression", 0)), "address") && len(args) == 1:
		amount = args[0]
	case callee.Type == "FunctionCallOptions": // x.call{value: v}(...)
		for i, name := range stringList(callee.Attrs["names"]) {
			if name == "value" {
				if opts := operands(callee, "options", 1); i < len(opts) {
					amount = opts[i]
				}
			}
		}
	case callee.Type == "FunctionCall": // x.call.value(v)(...)
		inner := operand(callee, "expression", 0)
		if inner != nil && inner.Type == "MemberAccess" && inner.MemberName() == "value" {
			if vargs := operands(callee, "arguments", 1); len(vargs) == 1 {
				amount = vargs[0]
			}
		}
	}
	if amount == nil {
		return false
	}
	a.sum.writes = append(a.sum.writes, write{key: varKey{v: balanceVar}, kind: wDec, seq: a.next()})
	a.sum.sendsEther = true
	if a.isBalance(amount, sc) {
		a.sum.sendsBalance = true
	}
	return true
}

func stringList(v any) []string {
	list, _ := v.([]any)
	var out []string
	for _, x := range list {
		s, _ := x.(string)
		out = append(out, s)
	}
	return out
}

// isBalance: address(this).balance or this.balance, directly or via a local.
func (a *analyzer) isBalance(n *solast.Node, sc *scope) bool {
	n, sc = resolveLocal(n, sc)
	if n == nil || n.Type != "MemberAccess" || n.MemberName() != "balance" {
		return false
	}
	base := operand(n, "expression", 0)
	if base != nil && base.Type == "FunctionCall" && isTypeConversion(base) {
		if args := operands(base, "arguments", 1); len(args) == 1 {
			base = args[0]
		}
	}
	return base != nil && base.Type == "Identifier" && base.Name == "this"
}

// resolveLocal follows identifiers bound to locals or parameters.
func resolveLocal(n *solast.Node, sc *scope) (*solast.Node, *scope) {
	for i := 0; i < 16 && n != nil; i++ {
		if n.Type == "TupleExpression" && len(n.Children) == 1 {
			n = n.Children[0]
			continue
		}
		if n.Type != "Identifier" {
			break
		}
		b, ok := sc.lookup(n.RefDecl())
		if !ok {
			break
		}
		n, sc = b.expr, b.sc
	}
	return n, sc
}

func (a *analyzer) arrayWrite(callee *solast.Node, sc *scope) bool {
	var kind writeKind
	switch callee.MemberName() {
	case "push":
		kind = wInc
	case "pop":
		kind = wDec
	default:
		return false
	}
	key, _, ok := a.stateKey(operand(callee, "expression", 0), sc)
	if !ok {
		return false
	}
	a.sum.writes = append(a.sum.writes, write{key: key, kind: kind, seq: a.next()})
	return true
}

// stateKey resolves an lvalue or read to the state it names: locals and
// parameters are followed to what they are bound to (storage pointers).
// whole is set when n names a whole struct entry rather than a field.
func (a *analyzer) stateKey(n *solast.Node, sc *scope) (key varKey, whole bool, ok bool) {
	return a.m.stateKey(n, sc)
}

func (m *model) stateKey(n *solast.Node, sc *scope) (varKey, bool, bool) {
	field := ""
	for i := 0; i < 32 && n != nil; i++ {
		switch n.Type {
		case "Identifier":
			if v := m.vars[n.RefDecl()]; v != nil {
				return varKey{v: v.name, field: field}, field == "" && isStructType(v), true
			}
			b, ok := sc.lookup(n.RefDecl())
			if !ok {
				return varKey{}, false, false
			}
			n, sc = b.expr, b.sc
		case "IndexAccess":
			n = operand(n, "baseExpression", 0)
		case "MemberAccess":
			if n.MemberName() == "balance" && (&analyzer{m: m}).isBalance(n, sc) {
				return varKey{v: balanceVar}, false, true
			}
			field = n.MemberName() // ends as the first-level struct field
			n = operand(n, "expression", 0)
		case "TupleExpression":
			if len(n.Children) != 1 {
				return varKey{}, false, false
			}
			n = n.Children[0]
		default:
			return varKey{}, false, false
		}
	}
	return varKey{}, false, false
}

// isStructType: whether the variable's entries are structs, so a write to
// the entry itself replaces a whole struct.
func isStructType(v *stateVar) bool {
	return strings.HasPrefix(innermostType(v.typ), "struct ")
}
