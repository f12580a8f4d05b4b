package dcrextract

import (
	"fmt"
	"sort"
	"strings"

	"github.com/solbehave/solbehave/internal/solast"
	"github.com/solbehave/solbehave/internal/solc"
)

// model is the part of a compiled contract the static rules read: its state
// variables, constants, functions and modifiers across the inheritance
// chain, indexed by AST id so identifiers resolve without name lookups.
type model struct {
	name    string
	sources map[int]string // solc source index -> text
	nodes   map[int]*solast.Node
	target  *solast.Node // the ContractDefinition
	prog    *solast.Program

	vars      map[int]*stateVar // declaration id -> non-constant state variable
	varByName map[string]*stateVar
	constants map[int]constant // declaration id -> constant state variable

	funcs     map[int]*solast.Node // every FunctionDefinition in the linearization
	modifiers map[string]*solast.Node
	ctor      *solast.Node
	entries   []entry // public state-changing functions, in source order

	libraryFuncs map[int]bool // functions declared in libraries (SafeMath.add ...)
	// deployerParams are the target constructor's parameters (declaration
	// ids) that the recorded deployment set to the deployer's address.
	deployerParams map[int]bool
}

// stateVar is a non-constant state variable.
type stateVar struct {
	id       int
	name     string
	typ      string // solc type string
	mapping  bool
	boolean  bool   // bool, or a mapping whose innermost value is bool
	address  bool   // address (possibly payable)
	public   bool   // has a getter
	initText string // the declaration's initial value, "" when none
	// ctorLiteral is the literal the constructor assigns to this variable
	// ("true", "false", "0", "msg.sender" for the deployer's address, or "?"
	// for anything else); "" when the constructor leaves it alone.
	ctorLiteral string
	// ctorKeyedBySender: a constructor assignment indexed by msg.sender or by a
	// variable holding it (balances[owner] = supply, owner = msg.sender).
	ctorKeyedBySender bool
}

// initialized says whether the variable holds something other than zero
// after deployment: a declaration initializer or a constructor assignment.
func (v *stateVar) initialized() bool {
	return (v.initText != "" && !isZeroText(v.initText)) || (v.ctorLiteral != "" && !isZeroText(v.ctorLiteral))
}

// isZeroText: an initial value that leaves the variable as it would be
// without one (`uint x = 0;`, `bool b = false;`).
func isZeroText(s string) bool {
	switch strings.ReplaceAll(s, " ", "") {
	case "0", "false", "0x0", "address(0)", "address(0x0)":
		return true
	}
	return false
}

// constant is a compile-time constant: its name and value expression.
type constant struct {
	name, value string
}

// entry is one public state-changing function (an event source).
type entry struct {
	node    *solast.Node
	fn      solast.Function
	payable bool
}

// label names the entry as events and annotations do: the function name, or
// "fallback" / "receive".
func (e entry) label() string {
	if e.fn.Name != "" {
		return e.fn.Name
	}
	return e.fn.Kind
}

// newModel reads the target contract out of a compile output; deployerArgs
// are the positions of the constructor arguments that carried the deployer.
func newModel(out *solc.Output, sources map[string]string, contract string, deployerArgs map[int]bool) (*model, error) {
	prog, err := solast.ParseProgram(out.ASTs(), sources)
	if err != nil {
		return nil, fmt.Errorf("dcrextract: %w", err)
	}
	m := &model{name: contract, sources: map[int]string{}, nodes: prog.Nodes, target: prog.Contract(contract), prog: prog,
		vars: map[int]*stateVar{}, varByName: map[string]*stateVar{}, constants: map[int]constant{},
		funcs: map[int]*solast.Node{}, modifiers: map[string]*solast.Node{}, libraryFuncs: map[int]bool{},
		deployerParams: map[int]bool{}}
	for file, src := range out.Sources {
		m.sources[src.ID] = sources[file]
	}
	if m.target == nil {
		return nil, fmt.Errorf("dcrextract: contract %s not found in the AST", contract)
	}
	m.readLinearization()
	for i, p := range paramDecls(m.constructorOf(m.target)) {
		if deployerArgs[i] {
			m.deployerParams[p.ID] = true
		}
	}
	m.readConstructor()
	m.readEntries()
	return m, nil
}

// linearization lists the target and its bases, most derived first, as
// solc's linearizedBaseContracts does (falling back on the target alone).
func (m *model) linearization() []*solast.Node {
	return m.prog.Linearization(m.target)
}

func (m *model) readLinearization() {
	for _, c := range m.linearization() {
		for _, v := range solast.StateVariables(c) {
			m.addStateVar(v)
		}
		for _, f := range solast.Functions(c) {
			m.funcs[f.Node.ID] = f.Node
		}
		for _, md := range solast.ModifierDefinitions(c) {
			if _, seen := m.modifiers[md.Name]; !seen { // most derived wins
				m.modifiers[md.Name] = md.Node
			}
		}
	}
	for _, n := range m.nodes {
		if n.Type == "ContractDefinition" && (n.Str("contractKind") == "library" || n.Bool("isLibrary")) {
			for _, f := range solast.Functions(n) {
				m.funcs[f.Node.ID] = f.Node
				m.libraryFuncs[f.Node.ID] = true
			}
		}
	}
}

func (m *model) addStateVar(v solast.StateVar) {
	init := v.Node.Child("value")
	if init == nil && len(v.Node.Children) > 1 && v.Node.Children[0].Field == "typeName" {
		init = v.Node.Children[1]
	}
	if v.Constant {
		if init != nil {
			m.constants[v.Node.ID] = constant{name: v.Name, value: m.text(init)}
		}
		return
	}
	if v.Immutable {
		// Immutables live in the code, not in storage: like constants whose
		// value is only known after deployment, so the rules treat them as set.
		m.vars[v.Node.ID] = &stateVar{id: v.Node.ID, name: v.Name, typ: v.Type, initText: "immutable"}
		m.varByName[v.Name] = m.vars[v.Node.ID]
		return
	}
	sv := &stateVar{id: v.Node.ID, name: v.Name, typ: v.Type, public: v.Visibility == "public",
		mapping: strings.HasPrefix(v.Type, "mapping("), boolean: innermostType(v.Type) == "bool",
		address: strings.HasPrefix(v.Type, "address")}
	if init != nil {
		sv.initText = m.text(init)
	}
	if _, dup := m.varByName[v.Name]; !dup {
		m.varByName[v.Name] = sv
	}
	m.vars[v.Node.ID] = sv
}

// innermostType strips mapping(K => ...) and array brackets to the value type.
func innermostType(t string) string {
	for strings.HasPrefix(t, "mapping(") {
		i := strings.Index(t, "=>")
		if i < 0 {
			return t
		}
		t = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(t[i+2:]), ")"))
	}
	return t
}

// readConstructor records what the constructors of the chain assign,
// through the internal functions they call (a base's constructor that sets
// its owner with a helper, as OpenZeppelin's Ownable does:
// `_transferOwnership(_msgSender())`) and with the arguments derived
// contracts pass to their bases' constructors (`Ownable(msg.sender)`).
func (m *model) readConstructor() {
	scopes := m.constructorScopes()
	for _, c := range m.linearization() {
		for _, f := range solast.Functions(c) {
			if f.Kind != "constructor" {
				continue
			}
			if c == m.target {
				m.ctor = f.Node
			}
			sc := scopes[c.ID]
			if sc == nil {
				sc = &scope{binds: map[int]binding{}}
			}
			m.scanConstructor(f.Node, sc, 0)
		}
	}
}

// constructorScopes binds the parameters of each base constructor of the
// chain to the arguments a more derived contract passes it, in its
// inheritance list or as a constructor modifier; keyed by the base's id.
func (m *model) constructorScopes() map[int]*scope {
	out := map[int]*scope{}
	bind := func(base int, args []*solast.Node, from *scope) {
		ctor := m.constructorOf(m.nodes[base])
		if ctor == nil || len(args) == 0 {
			return
		}
		out[base] = from.enter(ctor, args) // constructor scopes hold no entry parameters
	}
	for _, c := range m.linearization() { // most derived first: a base's arguments may use its heir's
		own := out[c.ID]
		if own == nil {
			own = &scope{binds: map[int]binding{}}
		}
		for _, spec := range c.ChildrenOf("baseContracts") {
			bind(operand(spec, "baseName", 0).RefDecl(), operands(spec, "arguments", 1), &scope{binds: map[int]binding{}})
		}
		if ctor := m.constructorOf(c); ctor != nil {
			for _, inv := range invocations(ctor) {
				if name := operand(inv, "modifierName", 0); name != nil && m.nodes[name.RefDecl()] != nil &&
					m.nodes[name.RefDecl()].Type == "ContractDefinition" {
					bind(name.RefDecl(), operands(inv, "arguments", 1), own)
				}
			}
		}
	}
	return out
}

func (m *model) constructorOf(c *solast.Node) *solast.Node {
	if c == nil {
		return nil
	}
	for _, f := range solast.Functions(c) {
		if f.Kind == "constructor" {
			return f.Node
		}
	}
	return nil
}

// maxCtorInline bounds how deep a constructor's internal calls are followed.
const maxCtorInline = 8

func (m *model) scanConstructor(fn *solast.Node, sc *scope, depth int) {
	fn.Walk(func(n *solast.Node) bool {
		switch n.Type {
		case "VariableDeclarationStatement": // address msgSender = _msgSender();
			bindLocal(n, sc)
		case "Assignment":
			m.ctorAssignment(n, sc)
		case "FunctionCall":
			m.ctorCall(n, fn, sc, depth)
		}
		return true
	})
}

func (m *model) ctorAssignment(n *solast.Node, sc *scope) {
	lhs, rhs := operand(n, "leftHandSide", 0), operand(n, "rightHandSide", 1)
	v, indexes := m.baseVar(lhs)
	if v == nil {
		return
	}
	rhs, rsc := resolveLocal(rhs, sc)
	v.ctorLiteral = ctorLiteral(m, rhs, rsc)
	for _, ix := range indexes {
		if ix, _ := resolveLocal(ix, sc); m.isSenderLike(ix) {
			v.ctorKeyedBySender = true
		}
	}
	if m.isSenderLike(rhs) {
		v.ctorKeyedBySender = true
	}
}

// ctorCall follows a constructor's call of an internal function of the
// chain, its parameters bound to the call's arguments.
func (m *model) ctorCall(n, caller *solast.Node, sc *scope, depth int) {
	callee := operand(n, "expression", 0)
	if callee == nil || depth >= maxCtorInline || isTypeConversion(n) {
		return
	}
	fn := m.callTarget(callee)
	if fn == nil || fn == caller || m.libraryFuncs[fn.ID] || fn.Child("body") == nil {
		return
	}
	m.scanConstructor(fn.Child("body"), sc.enter(fn, operands(n, "arguments", 1)), depth+1)
}

func ctorLiteral(m *model, rhs *solast.Node, sc *scope) string {
	switch {
	case rhs == nil:
		return "?"
	case rhs.Type == "Literal":
		return literalValue(rhs)
	case m.holdsDeployer(rhs, sc):
		return "msg.sender"
	}
	return "?"
}

// holdsDeployer: n is msg.sender (the deployer's address, in the
// constructor), a call of a function returning it (_msgSender()), or a
// parameter of the target's constructor that the recorded deployment set to
// the deployer's address. The last reads the deployment's arguments rather
// than assuming any address parameter is the deployer's: an owner passed as
// someone else (a multisig) stays unknown, so its functions are not sent
// from the deployer only to revert.
func (m *model) holdsDeployer(n *solast.Node, sc *scope) bool {
	return m.isSender(n) || m.returnsSender(n, sc) ||
		(n != nil && n.Type == "Identifier" && m.deployerParams[n.RefDecl()])
}

// returnsSender: a call of a function that returns msg.sender (_msgSender()).
func (m *model) returnsSender(n *solast.Node, sc *scope) bool {
	if n == nil || n.Type != "FunctionCall" {
		return false
	}
	ret, rsc := m.inlineReturn(n, sc)
	ret, _ = resolveLocal(ret, rsc)
	return ret != nil && m.isSender(ret)
}

// isSender reports msg.sender (or tx.origin, which is the deployer too).
func (m *model) isSender(n *solast.Node) bool {
	if n == nil || n.Type != "MemberAccess" {
		return false
	}
	base := operand(n, "expression", 0)
	member := n.MemberName()
	return base != nil && base.Type == "Identifier" &&
		((base.Name == "msg" && member == "sender") || (base.Name == "tx" && member == "origin"))
}

// isSenderLike: what holdsDeployer accepts, or a state variable the
// constructor set to the deployer (owner = msg.sender).
func (m *model) isSenderLike(n *solast.Node) bool {
	if m.holdsDeployer(n, &scope{binds: map[int]binding{}}) {
		return true
	}
	if n != nil && n.Type == "Identifier" {
		if v := m.vars[n.RefDecl()]; v != nil && v.ctorLiteral == "msg.sender" {
			return true
		}
	}
	return false
}

// baseVar resolves an lvalue like a[k].f to its state variable and the index
// expressions on the way.
func (m *model) baseVar(n *solast.Node) (*stateVar, []*solast.Node) {
	var indexes []*solast.Node
	for n != nil {
		switch n.Type {
		case "Identifier":
			return m.vars[n.RefDecl()], indexes
		case "IndexAccess":
			indexes = append(indexes, operand(n, "indexExpression", 1))
			n = operand(n, "baseExpression", 0)
		case "MemberAccess":
			n = operand(n, "expression", 0)
		default:
			return nil, nil
		}
	}
	return nil, nil
}

// readEntries lists the public state-changing functions: the most derived
// definition of each external entry point, in source order.
func (m *model) readEntries() {
	seen := map[string]bool{}
	for _, c := range m.linearization() {
		for _, f := range solast.Functions(c) {
			if !isEntry(f) {
				continue
			}
			sig := f.Kind + ":" + f.Name + "/" + paramTypes(f)
			if seen[sig] {
				continue
			}
			seen[sig] = true
			m.entries = append(m.entries, entry{node: f.Node, fn: f, payable: f.StateMutability == "payable"})
		}
	}
	sort.SliceStable(m.entries, func(i, j int) bool {
		a, b := m.entries[i].fn.Src, m.entries[j].fn.Src
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Start < b.Start
	})
}

func isEntry(f solast.Function) bool {
	switch f.Kind {
	case "fallback", "receive":
	case "function":
		if f.Visibility != "public" && f.Visibility != "external" {
			return false
		}
	default:
		return false
	}
	if f.BodySrc == nil {
		return false // an interface declaration
	}
	return f.StateMutability != "view" && f.StateMutability != "pure"
}

func paramTypes(f solast.Function) string {
	var ts []string
	for _, p := range f.Params {
		ts = append(ts, p.Type)
	}
	return strings.Join(ts, ",")
}

// text is the source text of a node.
func (m *model) text(n *solast.Node) string {
	if n == nil {
		return ""
	}
	return strings.TrimSpace(n.Src.Text(m.sources[n.Src.File]))
}

// --- AST accessors that work on both AST forms ---------------------------

// operand returns the child under a compact property name, or (legacy ASTs,
// whose expression children carry no property names) the idx-th child.
func operand(n *solast.Node, field string, idx int) *solast.Node {
	if n == nil {
		return nil
	}
	if c := n.Child(field); c != nil {
		return c
	}
	if legacyChildren(n) && idx < len(n.Children) {
		return n.Children[idx]
	}
	return nil
}

// operands returns every child under a property (legacy: children from idx).
func operands(n *solast.Node, field string, idx int) []*solast.Node {
	if n == nil {
		return nil
	}
	if cs := n.ChildrenOf(field); len(cs) > 0 {
		return cs
	}
	if legacyChildren(n) && idx < len(n.Children) {
		return n.Children[idx:]
	}
	return nil
}

func legacyChildren(n *solast.Node) bool {
	for _, c := range n.Children {
		if c.Field != "" {
			return false
		}
	}
	return true
}

func operator(n *solast.Node) string { return n.Str("operator") }

func literalValue(n *solast.Node) string {
	if s := n.Str("value"); s != "" {
		return s
	}
	return n.Str("hexValue")
}

func typeString(n *solast.Node) string {
	if td, ok := n.Attrs["typeDescriptions"].(map[string]any); ok {
		if s, ok := td["typeString"].(string); ok {
			return s
		}
	}
	return n.Str("type")
}

// isTypeConversion tells a FunctionCall that converts a type (address(x)).
func isTypeConversion(n *solast.Node) bool {
	return n.Str("kind") == "typeConversion" || n.Bool("type_conversion")
}

func intList(v any) []int {
	list, _ := v.([]any)
	out := make([]int, 0, len(list))
	for _, x := range list {
		if f, ok := x.(float64); ok {
			out = append(out, int(f))
		}
	}
	return out
}

// structFields lists the fields a struct constructor call sets and their
// values: named (S({a: x})) or positional (S(x)) in declaration order.
func (m *model) structFields(call *solast.Node) ([]string, []*solast.Node) {
	args := operands(call, "arguments", 1)
	if names := stringsOf(call.Attrs["names"]); len(names) == len(args) && len(names) > 0 {
		return names, args
	}
	name := strings.Fields(typeString(call) + " x")[1]
	if i := strings.LastIndex(name, "."); i >= 0 {
		name = name[i+1:]
	}
	ids := make([]int, 0, len(m.nodes))
	for id, n := range m.nodes {
		if n.Type == "StructDefinition" && n.Name == name {
			ids = append(ids, id)
		}
	}
	sort.Ints(ids)
	for _, id := range ids {
		n := m.nodes[id]
		var fields []string
		for _, c := range n.Children {
			if c.Type == "VariableDeclaration" {
				fields = append(fields, c.Name)
			}
		}
		if len(fields) == len(args) {
			return fields, args
		}
	}
	return nil, nil
}

func stringsOf(v any) []string {
	list, _ := v.([]any)
	var out []string
	for _, x := range list {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}
