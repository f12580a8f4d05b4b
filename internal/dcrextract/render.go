package dcrextract

import (
	"fmt"
	"maps"
	"strings"

	"github.com/solbehave/solbehave/internal/dcrgraph"
	"github.com/solbehave/solbehave/internal/solast"
)

// renderer writes a precondition as a guard (internal/dcrgraph's expression
// language): entry parameters become the event's proposed argument values,
// locals and callee parameters the expressions they are bound to, and named
// constants are collected with their values.
type renderer struct {
	m      *model
	args   []dcrgraph.Arg
	consts map[string]string
}

// errUnsupported marks an expression the guard language cannot say.
type errUnsupported struct{ what string }

func (e errUnsupported) Error() string { return "not expressible in a guard: " + e.what }

func (r *renderer) render(n *solast.Node, sc *scope, depth int) (string, error) {
	n = solast.Unparen(n)
	if n == nil || depth > 32 {
		return "", errUnsupported{"empty or too deep"}
	}
	switch n.Type {
	case "Literal":
		return r.literal(n)
	case "Identifier":
		return r.identifier(n, sc, depth)
	case "MemberAccess":
		return r.member(n, sc)
	case "IndexAccess":
		base := solast.Unparen(operand(n, "baseExpression", 0))
		if base == nil || base.Type != "Identifier" || r.m.vars[base.RefDecl()] == nil {
			return "", errUnsupported{"index into " + r.m.text(n)}
		}
		key, err := r.render(operand(n, "indexExpression", 1), sc, depth+1)
		if err != nil {
			return "", err
		}
		return base.Name + "[" + key + "]", nil
	case "BinaryOperation":
		l, err := r.render(operand(n, "leftExpression", 0), sc, depth+1)
		if err != nil {
			return "", err
		}
		rr, err := r.render(operand(n, "rightExpression", 1), sc, depth+1)
		if err != nil {
			return "", err
		}
		return "(" + l + " " + operator(n) + " " + rr + ")", nil
	case "UnaryOperation":
		if op := operator(n); op == "!" || op == "-" {
			x, err := r.render(operand(n, "subExpression", 0), sc, depth+1)
			return op + x, err
		}
	case "FunctionCall":
		return r.call(n, sc, depth)
	}
	return "", errUnsupported{r.m.text(n)}
}

func (r *renderer) literal(n *solast.Node) (string, error) {
	v := literalValue(n)
	switch kind := n.Str("kind"); {
	case kind == "bool" || v == "true" || v == "false":
		return v, nil
	case kind == "string" || n.Str("token") == "string":
		return "", errUnsupported{"string literal"}
	}
	if unit := n.Str("subdenomination"); unit != "" {
		return v + " " + unit, nil
	}
	return v, nil
}

func (r *renderer) identifier(n *solast.Node, sc *scope, depth int) (string, error) {
	id := n.RefDecl()
	if v := r.m.vars[id]; v != nil {
		return v.name, nil
	}
	if c, ok := r.m.constants[id]; ok {
		r.addConstant(c)
		return c.name, nil
	}
	if b, ok := sc.lookup(id); ok {
		return r.render(b.expr, b.sc, depth+1)
	}
	if sc != nil {
		if i, ok := sc.params[id]; ok {
			if i < len(r.args) {
				return argLiteral(r.args[i])
			}
			return "", errUnsupported{"parameter without a value"}
		}
	}
	if n.Name == "now" && r.m.builtin(n) {
		return "now", nil
	}
	return "", errUnsupported{n.Name}
}

// addConstant records a constant and the constants its value names.
func (r *renderer) addConstant(c constant) {
	if _, done := r.consts[c.name]; done {
		return
	}
	r.consts[c.name] = c.value
	for _, other := range r.m.constants {
		if other.name != c.name && containsWord(c.value, other.name) {
			r.addConstant(other)
		}
	}
}

func containsWord(s, w string) bool {
	for i := strings.Index(s, w); i >= 0; {
		before := i == 0 || !isIdentByte(s[i-1])
		after := i+len(w) == len(s) || !isIdentByte(s[i+len(w)])
		if before && after {
			return true
		}
		j := strings.Index(s[i+1:], w)
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || (c >= '0' && c <= '9') || (c|0x20 >= 'a' && c|0x20 <= 'z')
}

func (r *renderer) member(n *solast.Node, sc *scope) (string, error) {
	base := solast.Unparen(operand(n, "expression", 0))
	switch {
	case r.m.isSender(n):
		return "msg.sender", nil
	case base != nil && base.Type == "Identifier" && base.Name == "block" &&
		(n.MemberName() == "timestamp" || n.MemberName() == "number"):
		return "block." + n.MemberName(), nil
	case n.MemberName() == "balance" && (&analyzer{m: r.m}).isBalance(n, sc):
		return "address(this).balance", nil
	}
	return "", errUnsupported{r.m.text(n)}
}

func (r *renderer) call(n *solast.Node, sc *scope, depth int) (string, error) {
	args := operands(n, "arguments", 1)
	if isTypeConversion(n) && len(args) == 1 {
		callee := solast.Unparen(operand(n, "expression", 0))
		target := typeString(n)
		if callee != nil && callee.Type == "ElementaryTypeNameExpression" {
			target = strings.TrimPrefix(typeString(callee), "type(")
			target = strings.TrimSuffix(target, ")")
		}
		target = strings.TrimSuffix(strings.Fields(target + " x")[0], " payable")
		if a := solast.Unparen(args[0]); a != nil && a.Type == "Identifier" && a.Name == "this" {
			return "", errUnsupported{"address(this) as a value"}
		}
		x, err := r.render(args[0], sc, depth+1)
		if err != nil {
			return "", err
		}
		return target + "(" + x + ")", nil
	}
	if ret, rsc := r.m.inlineReturn(n, sc); ret != nil {
		x, err := r.render(ret, rsc, depth+1)
		if err != nil {
			return "", err
		}
		return "(" + x + ")", nil
	}
	return "", errUnsupported{r.m.text(n)}
}

// argLiteral writes a proposed argument as a guard literal.
func argLiteral(a dcrgraph.Arg) (string, error) {
	switch a.Value.Kind {
	case dcrgraph.ArgNumber, dcrgraph.ArgBool:
		return a.Value.Text, nil
	case dcrgraph.ArgString:
		if a.Type == "address" || strings.HasPrefix(a.Type, "uint") || strings.HasPrefix(a.Type, "int") || a.Type == "bool" {
			return a.Value.Text, nil
		}
	}
	return "", errUnsupported{fmt.Sprintf("argument of type %s", a.Type)}
}

// guardFor renders clauses as "the precondition does not hold yet":
// !(c1 && c2 ...), the guard under which a condition keeps its target
// waiting. Clauses that cannot be rendered are left out; "" when none can.
func (m *model) guardFor(cls []clause, args []dcrgraph.Arg) (string, map[string]string) {
	r := &renderer{m: m, args: args, consts: map[string]string{}}
	var parts []string
	seen := map[string]bool{}
	for _, c := range cls {
		text, err := r.render(c.expr, c.sc, 0)
		if err != nil {
			continue
		}
		if c.negated {
			text = "!" + text
		}
		if _, err := dcrgraph.CompileGuard(text, r.consts); err != nil || seen[text] {
			continue
		}
		seen[text] = true
		parts = append(parts, text)
	}
	if len(parts) == 0 {
		return "", nil
	}
	guard := "!(" + strings.Join(parts, " && ") + ")"
	if len(parts) == 1 && strings.HasPrefix(parts[0], "(") {
		guard = "!" + parts[0]
	}
	used := map[string]string{}
	for name, v := range r.consts {
		if containsWord(guard, name) || anyValueNames(r.consts, guard, name) {
			used[name] = v
		}
	}
	if len(used) == 0 {
		used = nil
	}
	return guard, maps.Clone(used)
}

// anyValueNames: whether a constant the guard names refers to name.
func anyValueNames(consts map[string]string, guard, name string) bool {
	for other, v := range consts {
		if other != name && containsWord(guard, other) && containsWord(v, name) {
			return true
		}
	}
	return false
}
