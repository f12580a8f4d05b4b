package solast

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
)

// Program is the source units of one compilation, parsed, with every node
// indexed by its id: a contract's bases, and the declarations its code
// refers to, may sit in other files.
type Program struct {
	Nodes map[int]*Node // every node with an id, across files
	files []string      // in name order
	roots map[string]*Node
}

// ParseProgram parses each file's AST, files in name order; texts, where a
// file has one, gives its nodes their source text (ParseWithSource).
func ParseProgram(asts map[string]json.RawMessage, texts map[string]string) (*Program, error) {
	p := &Program{Nodes: map[int]*Node{}, roots: map[string]*Node{}}
	for _, file := range slices.Sorted(maps.Keys(asts)) {
		if len(asts[file]) == 0 {
			return nil, fmt.Errorf("%s has no AST", file)
		}
		root, err := ParseWithSource(asts[file], texts[file])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		p.files, p.roots[file] = append(p.files, file), root
		root.Walk(func(n *Node) bool {
			if n.ID >= 0 {
				p.Nodes[n.ID] = n
			}
			return true
		})
	}
	return p, nil
}

// Walk visits every node of every file, files in name order.
func (p *Program) Walk(visit func(*Node) bool) {
	for _, f := range p.files {
		p.roots[f].Walk(visit)
	}
}

// Contract is the first contract, library or interface named name, files
// in name order; nil when there is none.
func (p *Program) Contract(name string) *Node {
	var found *Node
	p.Walk(func(n *Node) bool {
		if found == nil && n.Type == "ContractDefinition" && n.Name == name {
			found = n
		}
		return found == nil
	})
	return found
}

// Linearization is target's linearizedBaseContracts as nodes, most derived
// first; target alone when the compiler gave none.
func (p *Program) Linearization(target *Node) []*Node {
	var out []*Node
	ids, _ := target.Attrs["linearizedBaseContracts"].([]any)
	for _, id := range ids {
		if f, ok := id.(float64); ok && p.Nodes[int(f)] != nil {
			out = append(out, p.Nodes[int(f)])
		}
	}
	if len(out) == 0 {
		out = []*Node{target}
	}
	return out
}
