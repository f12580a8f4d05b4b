package solast

// Contract is a ContractDefinition (contract, library or interface).
type Contract struct {
	Name     string
	Kind     string   // "contract", "library", "interface"
	Bases    []string // names of the directly inherited contracts, in declaration order
	Abstract bool
	Src      Src
	Node     *Node
}

// Param is one parameter of a function, modifier or event.
type Param struct {
	Name    string
	Type    string // type string as solc prints it, e.g. "uint256", "string memory"
	Indexed bool   // event parameters only
}

// Function is a FunctionDefinition with its properties normalized across
// compiler versions.
type Function struct {
	// Name is "" for constructors, fallback and receive functions (whatever
	// the source called them: old constructors carry the contract's name).
	Name            string
	Kind            string // "function", "constructor", "fallback", "receive"
	Visibility      string // "public", "external", "internal", "private"
	StateMutability string // "pure", "view", "nonpayable", "payable"
	Modifiers       []string
	Params          []Param
	Returns         []Param
	Src             Src
	BodySrc         *Src // the body's `{`...`}`; nil when the function has no body
	Node            *Node
}

// StateVar is a state variable declared in a contract.
type StateVar struct {
	Name       string
	Type       string
	Visibility string
	Constant   bool
	Immutable  bool
	Src        Src
	Node       *Node
}

// ModifierDef is a modifier definition.
type ModifierDef struct {
	Name    string
	Params  []Param
	Src     Src
	BodySrc *Src
	Node    *Node
}

// Event is an event definition.
type Event struct {
	Name      string
	Params    []Param
	Anonymous bool
	Src       Src
	Node      *Node
}

// Contracts returns every ContractDefinition under root, in source order.
func Contracts(root *Node) []Contract {
	var out []Contract
	for _, n := range root.FindAll("ContractDefinition") {
		out = append(out, Contract{
			Name:     n.Name,
			Kind:     contractKind(n),
			Bases:    namesUnder(n, "baseContracts", "baseName"),
			Abstract: n.Bool("abstract"),
			Src:      n.Src,
			Node:     n,
		})
	}
	return out
}

func contractKind(n *Node) string {
	if k := n.Str("contractKind"); k != "" {
		return k
	}
	if n.Bool("isLibrary") { // 0.4.9 legacy
		return "library"
	}
	return "contract"
}

// namesUnder names, in order, what each node of n's list field refers to
// through its child named child (a modifier invocation's modifier, a base
// specifier's contract).
func namesUnder(n *Node, field, child string) []string {
	var out []string
	for _, item := range n.ChildrenOf(field) {
		if name := item.Child(child); name != nil {
			out = append(out, typeNameText(name))
		}
	}
	return out
}

// typeNameText names a UserDefinedTypeName/IdentifierPath in any version.
func typeNameText(n *Node) string {
	if n.Name != "" {
		return n.Name
	}
	if p := n.Child("pathNode"); p != nil && p.Name != "" {
		return p.Name
	}
	return n.Str("namePath")
}

// Functions returns the functions declared directly in a contract, in
// source order.
func Functions(contract *Node) []Function {
	var out []Function
	for _, n := range declarations(contract, "FunctionDefinition") {
		kind := functionKind(n, contract.Name)
		name := n.Name
		if kind != "function" {
			name = ""
		}
		out = append(out, Function{
			Name:            name,
			Kind:            kind,
			Visibility:      orDefault(n.Str("visibility"), "public"),
			StateMutability: stateMutability(n),
			Modifiers:       namesUnder(n, "modifiers", "modifierName"),
			Params:          params(n.Child("parameters")),
			Returns:         params(n.Child("returnParameters")),
			Src:             n.Src,
			BodySrc:         bodySrc(n),
			Node:            n,
		})
	}
	return out
}

func declarations(contract *Node, nodeType string) []*Node {
	var out []*Node
	if contract == nil {
		return nil
	}
	for _, c := range contract.Children {
		if c.Type == nodeType {
			out = append(out, c)
		}
	}
	return out
}

// functionKind: 0.5+ says so in "kind"; 0.4.22+ has "isConstructor"; before
// that a constructor is the function named like the contract (or
// `constructor`), and the unnamed function is the fallback.
func functionKind(n *Node, contractName string) string {
	if k := n.Str("kind"); k != "" {
		if k == "freeFunction" {
			return "function"
		}
		return k
	}
	if _, has := n.Attrs["isConstructor"]; has {
		if n.Bool("isConstructor") {
			return "constructor"
		}
	} else if n.Name != "" && (n.Name == contractName || n.Name == "constructor") {
		return "constructor"
	}
	if n.Name == "" {
		return "fallback"
	}
	return "function"
}

// stateMutability normalizes the pre-0.4.16 `constant`/`payable` flags.
func stateMutability(n *Node) string {
	if m := n.Str("stateMutability"); m != "" {
		return m
	}
	switch {
	case n.Bool("payable"):
		return "payable"
	case n.Bool("constant"):
		return "view"
	}
	return "nonpayable"
}

func params(list *Node) []Param {
	if list == nil {
		return nil
	}
	var out []Param
	for _, v := range list.Children {
		if v.Type != "VariableDeclaration" {
			continue
		}
		out = append(out, Param{Name: v.Name, Type: varType(v), Indexed: v.Bool("indexed")})
	}
	return out
}

// varType: compact ASTs carry typeDescriptions.typeString, legacy ones "type".
func varType(v *Node) string {
	if td, ok := v.Attrs["typeDescriptions"].(map[string]any); ok {
		if s, ok := td["typeString"].(string); ok && s != "" {
			return s
		}
	}
	return v.Str("type")
}

func bodySrc(n *Node) *Src {
	body := n.Child("body")
	if body == nil {
		return nil
	}
	s := body.Src
	return &s
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// StateVariables returns the state variables declared directly in a contract.
func StateVariables(contract *Node) []StateVar {
	var out []StateVar
	for _, v := range declarations(contract, "VariableDeclaration") {
		mut := v.Str("mutability")
		out = append(out, StateVar{
			Name:       v.Name,
			Type:       varType(v),
			Visibility: orDefault(v.Str("visibility"), "internal"),
			Constant:   v.Bool("constant") || mut == "constant",
			Immutable:  mut == "immutable",
			Src:        v.Src,
			Node:       v,
		})
	}
	return out
}

// ModifierDefinitions returns the modifiers declared directly in a contract.
func ModifierDefinitions(contract *Node) []ModifierDef {
	var out []ModifierDef
	for _, n := range declarations(contract, "ModifierDefinition") {
		out = append(out, ModifierDef{
			Name:    n.Name,
			Params:  params(n.Child("parameters")),
			Src:     n.Src,
			BodySrc: bodySrc(n),
			Node:    n,
		})
	}
	return out
}

// Events returns the events declared directly in a contract.
func Events(contract *Node) []Event {
	var out []Event
	for _, n := range declarations(contract, "EventDefinition") {
		out = append(out, Event{
			Name:      n.Name,
			Params:    params(n.Child("parameters")),
			Anonymous: n.Bool("anonymous"),
			Src:       n.Src,
			Node:      n,
		})
	}
	return out
}
