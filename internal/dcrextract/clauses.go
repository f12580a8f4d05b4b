package dcrextract

import (
	"github.com/solbehave/solbehave/internal/solast"
)

// addClause records a precondition: expr must hold (must not, when negated)
// for the success branch. Conjunctions are split and view functions with a
// single return expression are inlined, so each clause is one condition.
func (a *analyzer) addClause(expr *solast.Node, sc *scope, negated bool) {
	a.conjuncts(expr, sc, negated, 0)
}

func (a *analyzer) conjuncts(n *solast.Node, sc *scope, negated bool, depth int) {
	n = solast.Unparen(n)
	if n == nil || depth > 16 {
		return
	}
	switch {
	case n.Type == "UnaryOperation" && operator(n) == "!":
		a.conjuncts(operand(n, "subExpression", 0), sc, !negated, depth+1)
		return
	case n.Type == "BinaryOperation" && ((operator(n) == "&&" && !negated) || (operator(n) == "||" && negated)):
		a.conjuncts(operand(n, "leftExpression", 0), sc, negated, depth+1)
		a.conjuncts(operand(n, "rightExpression", 1), sc, negated, depth+1)
		return
	case n.Type == "FunctionCall":
		if ret, rsc := a.m.inlineReturn(n, sc); ret != nil {
			a.conjuncts(ret, rsc, negated, depth+1)
			return
		}
	case n.Type == "Identifier":
		if b, ok := sc.lookup(n.RefDecl()); ok && typeString(n) == "bool" {
			a.conjuncts(b.expr, b.sc, negated, depth+1)
			return
		}
	}
	a.sum.clauses = append(a.sum.clauses, a.m.classify(n, sc, negated, a.next()))
}

// inlineReturn returns the expression a call to a contract function with a
// body of a single `return expr;` stands for, with its parameters bound.
func (m *model) inlineReturn(call *solast.Node, sc *scope) (*solast.Node, *scope) {
	callee := operand(call, "expression", 0)
	if callee == nil || isTypeConversion(call) {
		return nil, nil
	}
	fn := m.callTarget(callee)
	if fn == nil || m.libraryFuncs[fn.ID] || len(invocations(fn)) > 0 {
		return nil, nil
	}
	body := fn.Child("body")
	if body == nil || len(body.Children) != 1 || body.Children[0].Type != "Return" {
		return nil, nil
	}
	ret := operand(body.Children[0], "expression", 0)
	if ret == nil {
		return nil, nil
	}
	return ret, sc.enter(fn, operands(call, "arguments", 1))
}

// classify decides what kind of precondition a conjunct is.
func (m *model) classify(n *solast.Node, sc *scope, negated bool, seq int) clause {
	c := clause{kind: cValue, expr: n, sc: sc, negated: negated, seq: seq}
	switch {
	case m.readsBlock(n, sc, 0):
		c.kind = cTime
	case isOr(n, negated):
		c.kind = cOr
	case m.roleCheck(n, sc, negated, &c):
	case m.gateCheck(n, sc, negated, &c):
	case m.zeroCheck(n, sc, negated, &c):
	default:
		pol := 1
		if negated {
			pol = -1
		}
		c.reads = dropTautologies(m.polarReads(n, sc, pol, nil, 0))
		if n.Type != "BinaryOperation" || !isComparison(operator(n)) {
			for i := range c.reads { // a bare value (x != 0 implied): any change may help
				c.reads[i].pol = 0
			}
		}
	}
	if c.kind != cValue && c.kind != cGate {
		c.reads = m.polarReads(n, sc, 0, nil, 0) // for the dependency test only
	}
	return c
}

func isOr(n *solast.Node, negated bool) bool {
	return n.Type == "BinaryOperation" && ((operator(n) == "||" && !negated) || (operator(n) == "&&" && negated))
}

func isComparison(op string) bool {
	switch op {
	case "<", "<=", ">", ">=", "==", "!=":
		return true
	}
	return false
}

// readsBlock reports whether an expression depends on the block (time or
// number): such preconditions are met by waiting, not by another call.
func (m *model) readsBlock(n *solast.Node, sc *scope, depth int) bool {
	found := false
	n.Walk(func(x *solast.Node) bool {
		if found || depth > 8 {
			return false
		}
		switch x.Type {
		case "Identifier":
			if x.Name == "now" && m.builtin(x) {
				found = true
			} else if b, ok := sc.lookup(x.RefDecl()); ok {
				found = m.readsBlock(b.expr, b.sc, depth+1)
			}
		case "MemberAccess":
			base := operand(x, "expression", 0)
			if base != nil && base.Type == "Identifier" && base.Name == "block" &&
				(x.MemberName() == "timestamp" || x.MemberName() == "number") {
				found = true
			}
		case "FunctionCall":
			if ret, rsc := m.inlineReturn(x, sc); ret != nil && m.readsBlock(ret, rsc, depth+1) {
				found = true
			}
		}
		return !found
	})
	return found
}

// roleCheck: msg.sender ==/!= an address state variable (not a mapping
// entry: comparing with a per-entry address is an ordinary precondition).
// Either side may be read through a base's one-line function, as
// OpenZeppelin's Ownable compares `owner() == _msgSender()`.
func (m *model) roleCheck(n *solast.Node, sc *scope, negated bool, c *clause) bool {
	if n.Type != "BinaryOperation" || (operator(n) != "==" && operator(n) != "!=") {
		return false
	}
	l, r := solast.Unparen(operand(n, "leftExpression", 0)), solast.Unparen(operand(n, "rightExpression", 1))
	if !m.isSender(l) && !m.returnsSender(l, sc) {
		l, r = r, l
	}
	if !m.isSender(l) && !m.returnsSender(l, sc) {
		return false
	}
	r, rsc := resolveLocal(r, sc)
	if r != nil && r.Type == "FunctionCall" { // a getter, owner() { return _owner; }
		if ret, _ := m.inlineReturn(r, rsc); ret != nil {
			r = solast.Unparen(ret)
		}
	}
	equal := (operator(n) == "==") != negated
	c.kind = cRole
	switch {
	case r != nil && r.Type == "Identifier" && m.vars[r.RefDecl()] != nil && !m.vars[r.RefDecl()].mapping:
		v := m.vars[r.RefDecl()]
		switch {
		case equal && (v.ctorLiteral == "msg.sender" || v.initText == "msg.sender"):
			c.role = "owner"
		case equal && !v.initialized():
			// msg.sender == pendingOwner, unset at deployment: someone must
			// name that caller first, an ordinary precondition.
			c.kind = cValue
			return false
		default:
			c.role = "other"
		}
		return true
	case r != nil && (&analyzer{m: m}).isThis(r):
		c.role = "self"
		return true
	}
	c.kind = cValue
	return false
}

func (a *analyzer) isThis(n *solast.Node) bool {
	if n.Type == "FunctionCall" && isTypeConversion(n) {
		if args := operands(n, "arguments", 1); len(args) == 1 {
			n = args[0]
		}
	}
	return n.Type == "Identifier" && n.Name == "this"
}

// gateCheck: a boolean state flag (`selling`, `!finalized`,
// `allowlist[msg.sender]`, `flag == true`).
func (m *model) gateCheck(n *solast.Node, sc *scope, negated bool, c *clause) bool {
	want := !negated
	if n.Type == "BinaryOperation" && (operator(n) == "==" || operator(n) == "!=") {
		l, r := solast.Unparen(operand(n, "leftExpression", 0)), solast.Unparen(operand(n, "rightExpression", 1))
		if l.Type == "Literal" {
			l, r = r, l
		}
		if r.Type != "Literal" || (literalValue(r) != "true" && literalValue(r) != "false") {
			return false
		}
		if (literalValue(r) == "false") != (operator(n) == "!=") {
			want = !want
		}
		n = l
	}
	if typeString(n) != "bool" {
		return false
	}
	key, _, ok := m.stateKey(n, sc)
	if !ok || key.v == balanceVar {
		return false
	}
	v := m.varByName[key.v]
	g := gate{key: key, want: want, mapping: v.mapping || key.field != ""}
	for _, ix := range m.indexes(n, sc) {
		if m.isSenderLike(ix) {
			g.senderKeyed = true
		}
	}
	c.kind, c.gate = cGate, g
	return true
}

// indexes lists the index expressions of a state access (through locals).
func (m *model) indexes(n *solast.Node, sc *scope) []*solast.Node {
	var out []*solast.Node
	for i := 0; i < 32 && n != nil; i++ {
		switch n.Type {
		case "IndexAccess":
			ix, _ := resolveLocal(operand(n, "indexExpression", 1), sc)
			out = append(out, ix)
			n = operand(n, "baseExpression", 0)
		case "MemberAccess":
			n = operand(n, "expression", 0)
		case "Identifier":
			b, ok := sc.lookup(n.RefDecl())
			if !ok {
				return out
			}
			n, sc = b.expr, b.sc
		default:
			return out
		}
	}
	return out
}

// polarReads lists the state a comparison reads, each with the direction a
// change must take to help it hold. Index expressions are not collected:
// which entry is read is not itself a precondition.
func (m *model) polarReads(n *solast.Node, sc *scope, pol int, out []polarRead, depth int) []polarRead {
	n = solast.Unparen(n)
	if n == nil || depth > 24 {
		return out
	}
	if key, _, ok := m.stateKey(n, sc); ok {
		return append(out, polarRead{key: key, pol: pol})
	}
	switch n.Type {
	case "BinaryOperation":
		l, r := operand(n, "leftExpression", 0), operand(n, "rightExpression", 1)
		lp, rp := pol, pol
		switch operator(n) {
		case ">", ">=":
			rp = -pol
		case "<", "<=":
			lp = -pol
		case "==", "!=":
			lp, rp = 0, 0
		case "-", "/":
			rp = -pol
		}
		out = m.polarReads(l, sc, lp, out, depth+1)
		return m.polarReads(r, sc, rp, out, depth+1)
	case "UnaryOperation":
		p := pol
		if operator(n) == "!" || operator(n) == "-" {
			p = -pol
		}
		return m.polarReads(operand(n, "subExpression", 0), sc, p, out, depth+1)
	case "Identifier":
		if b, ok := sc.lookup(n.RefDecl()); ok {
			return m.polarReads(b.expr, b.sc, pol, out, depth+1)
		}
	case "FunctionCall":
		if isTypeConversion(n) {
			for _, arg := range operands(n, "arguments", 1) {
				out = m.polarReads(arg, sc, pol, out, depth+1)
			}
			return out
		}
		if ret, rsc := m.inlineReturn(n, sc); ret != nil {
			return m.polarReads(ret, rsc, pol, out, depth+1)
		}
		if callee := operand(n, "expression", 0); callee != nil && callee.Type == "MemberAccess" {
			// a.add(b), a.sub(b): the base keeps the polarity
			out = m.polarReads(operand(callee, "expression", 0), sc, pol, out, depth+1)
			p := pol
			if name := callee.MemberName(); name == "sub" || name == "div" {
				p = -pol
			}
			for _, arg := range operands(n, "arguments", 1) {
				out = m.polarReads(arg, sc, p, out, depth+1)
			}
			return out
		}
		if fn := m.callTarget(operand(n, "expression", 0)); fn != nil {
			return m.returnReads(fn, n, sc, pol, out, depth)
		}
	case "Conditional":
		for _, c := range n.Children {
			out = m.polarReads(c, sc, 0, out, depth+1)
		}
	}
	return out
}

// returnReads collects the reads of every return expression of a callee
// with a longer body (ownerOf(id) reads owners through a local).
func (m *model) returnReads(fn, call *solast.Node, sc *scope, pol int, out []polarRead, depth int) []polarRead {
	csc := sc.enter(fn, operands(call, "arguments", 1))
	body := fn.Child("body")
	if body == nil {
		return out
	}
	for _, s := range body.Children {
		if s.Type == "VariableDeclarationStatement" {
			bindLocal(s, csc)
		}
		if s.Type == "Return" {
			out = m.polarReads(operand(s, "expression", 0), csc, pol, out, depth+1)
		}
	}
	return out
}

// dropTautologies removes state read on both sides of a comparison
// (x >= x, b[to] + v > b[to]): no write moves such a clause either way.
func dropTautologies(reads []polarRead) []polarRead {
	pols := map[varKey]map[int]bool{}
	for _, r := range reads {
		if pols[r.key] == nil {
			pols[r.key] = map[int]bool{}
		}
		pols[r.key][r.pol] = true
	}
	var out []polarRead
	for _, r := range reads {
		if p := pols[r.key]; p[1] && p[-1] {
			continue
		}
		out = append(out, r)
	}
	return out
}

// zeroCheck: `x == 0` on a number or address in state (voteStartTime == 0,
// pendingOwner == address(0)) reads as a flag "x is set" wanted false, so the
// flag rules apply: whoever sets x disables the event for good when nothing
// clears it.
func (m *model) zeroCheck(n *solast.Node, sc *scope, negated bool, c *clause) bool {
	if n.Type != "BinaryOperation" || (operator(n) != "==" && operator(n) != "!=") {
		return false
	}
	if (operator(n) == "==") == negated {
		return false // x != 0: an ordinary comparison
	}
	l, r := solast.Unparen(operand(n, "leftExpression", 0)), solast.Unparen(operand(n, "rightExpression", 1))
	if isZero(l) {
		l, r = r, l
	}
	if !isZero(r) || typeString(l) == "bool" {
		return false
	}
	key, whole, ok := m.stateKey(l, sc)
	if !ok || whole || key.v == balanceVar {
		return false
	}
	v := m.varByName[key.v]
	g := gate{key: key, want: false, numeric: true, mapping: v.mapping || key.field != ""}
	for _, ix := range m.indexes(l, sc) {
		if m.isSenderLike(ix) {
			g.senderKeyed = true
		}
	}
	c.kind, c.gate = cGate, g
	return true
}
