package dcrextract

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"math/big"
	"reflect"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"

	"github.com/solbehave/solbehave/internal/dcrgraph"
	"github.com/solbehave/solbehave/internal/solast"
)

// Where a proposed argument (or the wei sent) came from.
const (
	FromHistory = "history" // the most frequent successful tuple of the contract's history
	FromSource  = "source"  // a constant or literal a guard on the parameter compares it with
	FromDefault = "default" // the type's zero value
)

// proposal is an event's argument tuple with the provenance of each part.
type proposal struct {
	args        []dcrgraph.Arg
	argSources  []string
	value       string
	valueSource string
}

// Call is one historical transaction to the contract.
type Call struct {
	Data      []byte
	Value     *big.Int
	Succeeded bool
}

// historyTuple counts the decoded tuples of one function.
type historyTuple struct {
	args  []dcrgraph.Arg
	value string
	count int
	first int
}

// abiMethod finds the ABI method of an entry (nil for fallback / receive,
// or when no overload takes as many arguments).
func abiMethod(parsed *abi.ABI, e entry) *abi.Method {
	if parsed == nil || e.fn.Name == "" {
		return nil
	}
	types := make([]string, len(e.fn.Params))
	for i, p := range e.fn.Params {
		types[i] = canonicalType(p.Type)
	}
	if meth, sameArity := MethodFor(parsed, e.fn.Name, types); sameArity {
		return meth
	}
	return nil
}

// MethodFor finds the ABI function an event names: of the functions called
// name, the overload whose inputs have exactly the given ABI types, else the
// first (in sorted signature order, so the pick is stable) with as many
// inputs; sameArity says one of those was found. Failing both it returns the
// first function of that name, and nil when there is none.
func MethodFor(parsed *abi.ABI, name string, types []string) (meth *abi.Method, sameArity bool) {
	var byArity, byName *abi.Method
	for _, key := range slices.Sorted(maps.Keys(parsed.Methods)) {
		m := parsed.Methods[key]
		if m.RawName != name {
			continue
		}
		if byName == nil {
			byName = &m
		}
		if len(m.Inputs) != len(types) {
			continue
		}
		if sameTypes(m.Inputs, types) {
			return &m, true
		}
		if byArity == nil {
			byArity = &m
		}
	}
	if byArity != nil {
		return byArity, true
	}
	return byName, false
}

func sameTypes(in abi.Arguments, types []string) bool {
	for i, a := range in {
		if types[i] != a.Type.String() {
			return false
		}
	}
	return true
}

// canonicalType turns solc's type string into the ABI's: no data location,
// no `payable`, contracts as address (structs stay unmatched: tuple).
func canonicalType(t string) string {
	t = strings.NewReplacer(" memory", "", " calldata", "", " storage", "", " pointer", "", " ref", "").Replace(t)
	t = strings.ReplaceAll(t, "address payable", "address")
	if strings.HasPrefix(t, "contract ") {
		return "address"
	}
	return strings.TrimSpace(t)
}

// fromHistory picks, per function selector, the most frequent successful
// (and, for fail branches, failed) argument tuple; ties go to the earliest.
func fromHistory(parsed *abi.ABI, calls []Call, succeeded bool) map[string]*historyTuple {
	counts := map[string]map[string]*historyTuple{}
	for i, c := range calls {
		if c.Succeeded != succeeded {
			continue
		}
		sel, args, ok := decodeCall(parsed, c.Data)
		if !ok {
			continue
		}
		value := "0"
		if c.Value != nil {
			value = c.Value.String()
		}
		key := tupleKey(args, value)
		if counts[sel] == nil {
			counts[sel] = map[string]*historyTuple{}
		}
		t := counts[sel][key]
		if t == nil {
			t = &historyTuple{args: args, value: value, first: i}
			counts[sel][key] = t
		}
		t.count++
	}
	best := map[string]*historyTuple{}
	for sel, byKey := range counts {
		for _, t := range byKey {
			if b := best[sel]; b == nil || t.count > b.count || (t.count == b.count && t.first < b.first) {
				best[sel] = t
			}
		}
	}
	return best
}

// fallbackSelector keys calls that reach the fallback or receive function.
const fallbackSelector = "()"

func decodeCall(parsed *abi.ABI, data []byte) (string, []dcrgraph.Arg, bool) {
	if len(data) < 4 {
		return fallbackSelector, nil, true
	}
	meth, err := parsed.MethodById(data[:4])
	if err != nil {
		return fallbackSelector, nil, true
	}
	vals, err := meth.Inputs.Unpack(data[4:])
	if err != nil {
		return "", nil, false
	}
	args := make([]dcrgraph.Arg, len(vals))
	for i, v := range vals {
		args[i] = dcrgraph.Arg{Type: meth.Inputs[i].Type.String(), Value: argValue(meth.Inputs[i].Type, v)}
	}
	return hex.EncodeToString(meth.ID), args, true
}

func tupleKey(args []dcrgraph.Arg, value string) string {
	b, _ := json.Marshal(args)
	return string(b) + "|" + value
}

// argValue renders a decoded ABI value the way dcrgraph.Arg holds it.
func argValue(t abi.Type, v any) dcrgraph.ArgValue {
	switch t.T {
	case abi.IntTy, abi.UintTy:
		return dcrgraph.NumberArg(fmt.Sprint(v))
	case abi.BoolTy:
		b, _ := v.(bool)
		return dcrgraph.BoolArg(b)
	case abi.StringTy:
		s, _ := v.(string)
		return dcrgraph.StringArg(s)
	}
	return dcrgraph.StringArg(plainText(t, v))
}

// plainText renders addresses and bytes as 0x hex, and arrays and tuples as
// JSON text whose elements follow the same conventions.
func plainText(t abi.Type, v any) string {
	b, _ := json.Marshal(jsonable(t, v))
	var s string
	if json.Unmarshal(b, &s) == nil {
		return s
	}
	return string(b)
}

func jsonable(t abi.Type, v any) any {
	rv := reflect.ValueOf(v)
	switch t.T {
	case abi.AddressTy:
		a, _ := v.(common.Address)
		return strings.ToLower(a.Hex())
	case abi.FixedBytesTy, abi.BytesTy:
		b := make([]byte, rv.Len())
		reflect.Copy(reflect.ValueOf(b), rv)
		return "0x" + hex.EncodeToString(b)
	case abi.IntTy, abi.UintTy:
		return json.Number(fmt.Sprint(v))
	case abi.SliceTy, abi.ArrayTy:
		out := make([]any, rv.Len())
		for i := range out {
			out[i] = jsonable(*t.Elem, rv.Index(i).Interface())
		}
		return out
	case abi.TupleTy:
		out := make([]any, len(t.TupleElems))
		for i := range out {
			out[i] = jsonable(*t.TupleElems[i], rv.Field(i).Interface())
		}
		return out
	}
	return v
}

// defaultArg is the zero value of an ABI type.
func defaultArg(typ string) dcrgraph.Arg {
	base := typ
	switch {
	case strings.HasSuffix(typ, "]") || strings.HasPrefix(typ, "("):
		return dcrgraph.Arg{Type: typ, Value: dcrgraph.StringArg("[]")}
	case base == "bool":
		return dcrgraph.Arg{Type: typ, Value: dcrgraph.BoolArg(false)}
	case base == "address":
		return dcrgraph.Arg{Type: typ, Value: dcrgraph.StringArg("0x" + strings.Repeat("0", 40))}
	case base == "string":
		return dcrgraph.Arg{Type: typ, Value: dcrgraph.StringArg("")}
	case base == "bytes":
		return dcrgraph.Arg{Type: typ, Value: dcrgraph.StringArg("0x")}
	case strings.HasPrefix(base, "bytes"):
		var n int
		fmt.Sscanf(strings.TrimPrefix(base, "bytes"), "%d", &n)
		return dcrgraph.Arg{Type: typ, Value: dcrgraph.StringArg("0x" + strings.Repeat("00", n))}
	}
	return dcrgraph.Arg{Type: typ, Value: dcrgraph.NumberArg("0")}
}

// argTypes are the ABI types of an entry's parameters.
func argTypes(meth *abi.Method, e entry) []string {
	types := make([]string, len(e.fn.Params))
	for i, p := range e.fn.Params {
		if meth != nil && i < len(meth.Inputs) {
			types[i] = meth.Inputs[i].Type.String()
		} else {
			types[i] = canonicalType(p.Type)
		}
	}
	return types
}

// propose builds an event's tuple: history, else source constants, else
// type defaults, argument by argument.
func (x *extraction) propose(i int, hist *historyTuple) proposal {
	e := x.m.entries[i]
	types := argTypes(x.methods[i], e)
	p := proposal{args: make([]dcrgraph.Arg, len(types)), argSources: make([]string, len(types))}
	if hist != nil && len(hist.args) == len(types) {
		copy(p.args, hist.args)
		for j := range p.argSources {
			p.argSources[j] = FromHistory
		}
		if e.payable {
			p.value, p.valueSource = hist.value, FromHistory
		}
		return p
	}
	for j, t := range types {
		if v, ok := x.sourceValue(i, j, t); ok {
			p.args[j], p.argSources[j] = dcrgraph.Arg{Type: t, Value: v}, FromSource
			continue
		}
		p.args[j], p.argSources[j] = defaultArg(t), FromDefault
	}
	if e.payable {
		if v, ok := x.sourceMsgValue(i); ok {
			p.value, p.valueSource = v, FromSource
		} else {
			p.value, p.valueSource = "0", FromDefault
		}
	}
	return p
}

// sourceValue looks for a clause comparing parameter j with a constant
// expression and picks a value that satisfies it.
func (x *extraction) sourceValue(i, j int, typ string) (dcrgraph.ArgValue, bool) {
	for _, c := range x.sums[i].clauses {
		op, other, ok := x.compareWith(c, func(n *solast.Node, sc *scope) bool {
			idx, isParam := entryParam(n, sc)
			return isParam && idx == j
		})
		if !ok {
			continue
		}
		n, ok := x.constantValue(other, c.sc)
		if !ok {
			continue
		}
		if typ == "address" {
			if op == "!=" && n.Sign() == 0 {
				return dcrgraph.StringArg(strings.ToLower(x.in.Caller.Hex())), true
			}
			continue
		}
		if !strings.HasPrefix(typ, "uint") && !strings.HasPrefix(typ, "int") {
			continue
		}
		if v, ok := satisfying(op, n); ok {
			return dcrgraph.NumberArg(v.String()), true
		}
	}
	return dcrgraph.ArgValue{}, false
}

// sourceMsgValue is sourceValue for msg.value.
func (x *extraction) sourceMsgValue(i int) (string, bool) {
	for _, c := range x.sums[i].clauses {
		op, other, ok := x.compareWith(c, func(n *solast.Node, sc *scope) bool {
			n, _ = resolveLocal(n, sc)
			return n != nil && n.Type == "MemberAccess" && n.MemberName() == "value" &&
				operand(n, "expression", 0) != nil && operand(n, "expression", 0).Name == "msg"
		})
		if !ok {
			continue
		}
		if n, ok := x.constantValue(other, c.sc); ok {
			if v, ok := satisfying(op, n); ok {
				return v.String(), true
			}
		}
	}
	return "", false
}

// compareWith matches a comparison clause with one side picked by isSide;
// it returns the operator as seen from that side (`side op other`).
func (x *extraction) compareWith(c clause, isSide func(*solast.Node, *scope) bool) (string, *solast.Node, bool) {
	n := c.expr
	if c.kind != cValue || n.Type != "BinaryOperation" || !isComparison(operator(n)) {
		return "", nil, false
	}
	l, r := operand(n, "leftExpression", 0), operand(n, "rightExpression", 1)
	op := operator(n)
	switch {
	case isSide(solast.Unparen(l), c.sc):
	case isSide(solast.Unparen(r), c.sc):
		l, r = r, l
		op = flipped(op)
	default:
		return "", nil, false
	}
	if c.negated {
		op = negatedOp(op)
	}
	return op, r, true
}

func flipped(op string) string {
	return map[string]string{"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}[op]
}

func negatedOp(op string) string {
	return map[string]string{"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}[op]
}

// satisfying picks the value closest to n that makes `x op n` true.
func satisfying(op string, n *big.Int) (*big.Int, bool) {
	one := big.NewInt(1)
	switch op {
	case ">=", "<=", "==":
		return n, n.Sign() >= 0
	case ">":
		return new(big.Int).Add(n, one), true
	case "<":
		v := new(big.Int).Sub(n, one)
		return v, v.Sign() >= 0
	case "!=":
		if n.Sign() == 0 {
			return one, true
		}
		return new(big.Int), true
	}
	return nil, false
}

// entryParam reports whether n (through bindings) is a parameter of the entry.
func entryParam(n *solast.Node, sc *scope) (int, bool) {
	n, sc = resolveLocal(n, sc)
	if n == nil || n.Type != "Identifier" || sc == nil {
		return 0, false
	}
	i, ok := sc.params[n.RefDecl()]
	if _, bound := sc.lookup(n.RefDecl()); bound {
		return 0, false
	}
	return i, ok
}

// constantValue evaluates an expression made only of literals and named
// constants.
func (x *extraction) constantValue(n *solast.Node, sc *scope) (*big.Int, bool) {
	r := &renderer{m: x.m, consts: map[string]string{}}
	text, err := r.render(n, sc, 0)
	if err != nil {
		return nil, false
	}
	g, err := dcrgraph.CompileGuard(text, r.consts)
	if err != nil || len(g.StateVars()) > 0 {
		return nil, false
	}
	v, err := g.Eval(nil)
	if err != nil {
		return nil, false
	}
	if a, ok := v.Address(); ok {
		return new(big.Int).SetBytes(a[:]), true
	}
	return v.Int()
}
