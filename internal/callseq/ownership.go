package callseq

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"

	"github.com/solbehave/solbehave/internal/solast"
	"github.com/solbehave/solbehave/internal/solc"
)

// abiOwnershipNames are transferred whenever the ABI has them, whatever the
// AST says (an Ownable whose owner check the analysis does not recognise).
var abiOwnershipNames = []string{"renounceOwnership", "transferOwnership"}

// OwnershipFunctions lists, sorted, the public state-changing functions of
// contract that can take the owner role away from the deployer: those that
// write an address state variable some owner check compares msg.sender
// with, directly or through the internal functions they call, plus
// renounceOwnership and transferOwnership when the ABI has them. prog is
// out's ASTs, for a caller that parsed them already (nil: parsed here).
func OwnershipFunctions(out *solc.Output, prog *solast.Program, contract string) ([]string, error) {
	c, err := out.Contract(contract)
	if err != nil {
		return nil, err
	}
	parsed, err := abi.JSON(bytes.NewReader(c.ABI))
	if err != nil {
		return nil, fmt.Errorf("ABI of %s: %w", contract, err)
	}
	a, err := newOwnerAnalysis(out, prog, contract)
	if err != nil {
		return nil, err
	}
	names := map[string]bool{}
	for _, n := range a.writersOf(a.ownerVars()) {
		names[n] = true
	}
	for _, n := range abiOwnershipNames {
		for _, m := range parsed.Methods {
			if m.RawName == n && !m.IsConstant() {
				names[n] = true
			}
		}
	}
	list := make([]string, 0, len(names))
	for n := range names {
		list = append(list, n)
	}
	sort.Strings(list)
	return list, nil
}

// ownerAnalysis indexes the target contract's linearization.
type ownerAnalysis struct {
	nodes     map[int]*solast.Node
	addrVars  map[int]bool // address state variables (not mappings)
	stateVars map[int]bool
	funcs     []solast.Function // function definitions of the linearization
	modifiers []*solast.Node
}

func newOwnerAnalysis(out *solc.Output, prog *solast.Program, contract string) (*ownerAnalysis, error) {
	if prog == nil {
		var err error
		if prog, err = solast.ParseProgram(out.ASTs(), nil); err != nil {
			return nil, err
		}
	}
	a := &ownerAnalysis{nodes: prog.Nodes, addrVars: map[int]bool{}, stateVars: map[int]bool{}}
	target := prog.Contract(contract)
	if target == nil {
		return nil, fmt.Errorf("contract %s not in the AST", contract)
	}
	for _, c := range prog.Linearization(target) {
		for _, v := range solast.StateVariables(c) {
			a.stateVars[v.Node.ID] = true
			if t := strings.TrimSuffix(v.Type, " payable"); t == "address" || strings.HasPrefix(t, "contract ") {
				a.addrVars[v.Node.ID] = true
			}
		}
		a.funcs = append(a.funcs, solast.Functions(c)...)
		for _, m := range solast.ModifierDefinitions(c) {
			a.modifiers = append(a.modifiers, m.Node)
		}
	}
	return a, nil
}

// ownerVars are the address state variables compared (== or !=) with
// msg.sender anywhere in a function or modifier.
func (a *ownerAnalysis) ownerVars() map[int]bool {
	vars := map[int]bool{}
	bodies := append([]*solast.Node(nil), a.modifiers...)
	for _, f := range a.funcs {
		bodies = append(bodies, f.Node)
	}
	for _, body := range bodies {
		body.Walk(func(n *solast.Node) bool {
			if n.Type != "BinaryOperation" || (n.Str("operator") != "==" && n.Str("operator") != "!=") || len(n.Children) < 2 {
				return true
			}
			l, r := solast.Unparen(n.Children[0]), solast.Unparen(n.Children[1])
			if !a.isSender(l) {
				l, r = r, l
			}
			if a.isSender(l) {
				if id, ok := a.addressVar(r); ok {
					vars[id] = true
				}
			}
			return true
		})
	}
	return vars
}

// isSender: msg.sender, or a call of a function that returns it (_msgSender()).
func (a *ownerAnalysis) isSender(n *solast.Node) bool {
	if n.Type == "MemberAccess" && n.MemberName() == "sender" && len(n.Children) > 0 {
		base := n.Children[0]
		return base.Type == "Identifier" && base.Name == "msg"
	}
	if ret := a.inlineReturn(n); ret != nil {
		return ret.Type == "MemberAccess" && a.isSender(ret)
	}
	return false
}

// addressVar resolves an address state variable, read directly or through
// a getter-like function (owner() { return _owner; }).
func (a *ownerAnalysis) addressVar(n *solast.Node) (int, bool) {
	if n.Type == "Identifier" {
		id := n.RefDecl()
		return id, a.addrVars[id]
	}
	if ret := a.inlineReturn(n); ret != nil && ret.Type == "Identifier" {
		id := ret.RefDecl()
		return id, a.addrVars[id]
	}
	return 0, false
}

// inlineReturn is the returned expression of a zero-argument call to a
// function whose body is a single return statement.
func (a *ownerAnalysis) inlineReturn(n *solast.Node) *solast.Node {
	if n.Type != "FunctionCall" || len(n.Children) != 1 || n.Children[0].Type != "Identifier" {
		return nil
	}
	fn := a.nodes[n.Children[0].RefDecl()]
	if fn == nil || fn.Type != "FunctionDefinition" {
		return nil
	}
	body := fn.Child("body")
	if body == nil || len(body.Children) != 1 || body.Children[0].Type != "Return" || len(body.Children[0].Children) != 1 {
		return nil
	}
	return solast.Unparen(body.Children[0].Children[0])
}

// writersOf names the public or external, non-constructor, state-changing
// functions that write one of vars, directly or through internal calls.
func (a *ownerAnalysis) writersOf(vars map[int]bool) []string {
	if len(vars) == 0 {
		return nil
	}
	writes := map[int]bool{} // function id -> writes an owner variable
	calls := map[int][]int{}
	for _, f := range a.funcs {
		id := f.Node.ID
		f.Node.Walk(func(n *solast.Node) bool {
			switch n.Type {
			case "Assignment":
				if len(n.Children) > 0 && vars[solast.Unparen(n.Children[0]).RefDecl()] {
					writes[id] = true
				}
			case "UnaryOperation":
				if n.Str("operator") == "delete" && len(n.Children) > 0 && vars[solast.Unparen(n.Children[0]).RefDecl()] {
					writes[id] = true
				}
			case "FunctionCall":
				if len(n.Children) > 0 && n.Children[0].Type == "Identifier" {
					calls[id] = append(calls[id], n.Children[0].RefDecl())
				}
			}
			return true
		})
	}
	for changed := true; changed; {
		changed = false
		for caller, callees := range calls {
			for _, callee := range callees {
				if writes[callee] && !writes[caller] {
					writes[caller], changed = true, true
				}
			}
		}
	}
	var names []string
	for _, f := range a.funcs {
		if writes[f.Node.ID] && f.Kind == "function" && (f.Visibility == "public" || f.Visibility == "external") &&
			f.StateMutability != "view" && f.StateMutability != "pure" {
			names = append(names, f.Name)
		}
	}
	return names
}
