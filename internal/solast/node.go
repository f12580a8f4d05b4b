package solast

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Node is one AST node in normalized form.
type Node struct {
	Type string // nodeType (compact) or name (legacy), e.g. "FunctionDefinition"
	ID   int
	Src  Src
	// Name is the node's declared name where it has one ("name" property;
	// for legacy Identifier nodes the "value" attribute).
	Name string
	// Attrs holds every property that is not a child node (compact), or the
	// legacy `attributes` object.
	Attrs map[string]any
	// Field is the compact-AST property under which the parent holds this
	// node ("body", "parameters", "nodes", ...); "" where unknown.
	Field    string
	Children []*Node
}

// Src is a solc source range: byte offset, byte length and source file index
// (-1 when unknown).
type Src struct{ Start, Length, File int }

// End is the offset just past the range.
func (s Src) End() int { return s.Start + s.Length }

// Text returns the part of source the range covers, or "" if it falls outside.
func (s Src) Text(source string) string {
	if s.Start < 0 || s.Length < 0 || s.End() > len(source) {
		return ""
	}
	return source[s.Start:s.End()]
}

// ParseSrc parses "start:length:file".
func ParseSrc(s string) (Src, error) {
	parts := strings.Split(s, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return Src{}, fmt.Errorf("solast: bad src %q", s)
	}
	var nums [3]int
	nums[2] = -1
	for i, p := range parts {
		v, err := strconv.Atoi(p)
		if err != nil {
			return Src{}, fmt.Errorf("solast: bad src %q", s)
		}
		nums[i] = v
	}
	return Src{Start: nums[0], Length: nums[1], File: nums[2]}, nil
}

// Parse reads a SourceUnit (or any node) in compact or legacy form.
func Parse(raw json.RawMessage) (*Node, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil, errors.New("solast: empty AST")
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("solast: AST is not a JSON object: %w", err)
	}
	switch {
	case isCompact(m):
		return fromCompact(m, "")
	case isLegacy(m):
		return fromLegacy(m, "")
	default:
		return nil, errors.New("solast: JSON object is neither a compact (nodeType) nor a legacy (name/children) AST node")
	}
}

// IsLegacy reports whether raw is a legacy-form AST (cheap sniff, no full parse).
func IsLegacy(raw json.RawMessage) bool {
	var probe struct {
		NodeType *string `json:"nodeType"`
		Name     *string `json:"name"`
	}
	if json.Unmarshal(raw, &probe) != nil {
		return false
	}
	return probe.NodeType == nil && probe.Name != nil
}

func isCompact(m map[string]any) bool {
	_, ok := m["nodeType"].(string)
	return ok
}

func isLegacy(m map[string]any) bool {
	if _, ok := m["name"].(string); !ok {
		return false
	}
	_, hasChildren := m["children"]
	_, hasAttrs := m["attributes"]
	_, hasSrc := m["src"]
	return hasChildren || hasAttrs || hasSrc
}

func baseNode(m map[string]any, typ, field string) (*Node, error) {
	n := &Node{Type: typ, Field: field, ID: -1, Src: Src{Start: -1, Length: 0, File: -1}}
	if id, ok := m["id"].(float64); ok {
		n.ID = int(id)
	}
	if s, ok := m["src"].(string); ok {
		src, err := ParseSrc(s)
		if err != nil {
			return nil, err
		}
		n.Src = src
	}
	return n, nil
}

func fromCompact(m map[string]any, field string) (*Node, error) {
	n, err := baseNode(m, m["nodeType"].(string), field)
	if err != nil {
		return nil, err
	}
	n.Attrs = make(map[string]any, len(m))
	for k, v := range m {
		switch k {
		case "nodeType", "id", "src":
			continue
		}
		kids, isNodes := compactNodes(v)
		if !isNodes {
			n.Attrs[k] = v
			continue
		}
		for _, kid := range kids {
			c, err := fromCompact(kid, k)
			if err != nil {
				return nil, err
			}
			n.Children = append(n.Children, c)
		}
	}
	n.Name, _ = m["name"].(string)
	sortChildren(n.Children)
	return n, nil
}

// compactNodes says whether v is a node or a non-empty list of nodes (nulls
// skipped) and returns them.
func compactNodes(v any) ([]map[string]any, bool) {
	switch t := v.(type) {
	case map[string]any:
		if isCompact(t) {
			return []map[string]any{t}, true
		}
	case []any:
		var out []map[string]any
		for _, e := range t {
			if e == nil {
				continue
			}
			em, ok := e.(map[string]any)
			if !ok || !isCompact(em) {
				return nil, false
			}
			out = append(out, em)
		}
		return out, len(out) > 0
	}
	return nil, false
}

// sortChildren puts compact children in source order; map iteration is
// random, so ties fall back to property name and then the original order.
func sortChildren(kids []*Node) {
	sort.SliceStable(kids, func(i, j int) bool {
		if kids[i].Src.Start != kids[j].Src.Start {
			return kids[i].Src.Start < kids[j].Src.Start
		}
		return kids[i].Field < kids[j].Field
	})
}

func fromLegacy(m map[string]any, field string) (*Node, error) {
	n, err := baseNode(m, m["name"].(string), field)
	if err != nil {
		return nil, err
	}
	n.Attrs, _ = m["attributes"].(map[string]any)
	if n.Attrs == nil {
		n.Attrs = map[string]any{}
	}
	n.Name, _ = n.Attrs["name"].(string)
	if n.Type == "Identifier" && n.Name == "" {
		n.Name, _ = n.Attrs["value"].(string)
	}
	kids, _ := m["children"].([]any)
	for _, k := range kids {
		km, ok := k.(map[string]any)
		if !ok || !isLegacy(km) {
			continue
		}
		c, err := fromLegacy(km, "")
		if err != nil {
			return nil, err
		}
		n.Children = append(n.Children, c)
	}
	assignLegacyFields(n)
	return n, nil
}

// assignLegacyFields gives legacy children the compact property names the
// helpers look for; the legacy form only has their order and type.
func assignLegacyFields(n *Node) {
	switch n.Type {
	case "FunctionDefinition", "ModifierDefinition", "EventDefinition":
		params := 0
		for _, c := range n.Children {
			switch c.Type {
			case "ParameterList":
				if params == 0 {
					c.Field = "parameters"
				} else {
					c.Field = "returnParameters"
				}
				params++
			case "ModifierInvocation":
				c.Field = "modifiers"
			case "Block":
				c.Field = "body"
			}
		}
	case "ContractDefinition":
		for _, c := range n.Children {
			if c.Type == "InheritanceSpecifier" {
				c.Field = "baseContracts"
			} else {
				c.Field = "nodes"
			}
		}
	case "SourceUnit":
		setFields(n.Children, "nodes")
	case "ParameterList":
		setFields(n.Children, "parameters")
	case "Block":
		setFields(n.Children, "statements")
	case "VariableDeclaration":
		firstThen(n.Children, "typeName", "value")
	case "InheritanceSpecifier":
		firstThen(n.Children, "baseName", "arguments")
	case "ModifierInvocation":
		firstThen(n.Children, "modifierName", "arguments")
	}
}

func setFields(kids []*Node, field string) {
	for _, c := range kids {
		c.Field = field
	}
}

func firstThen(kids []*Node, first, rest string) {
	for i, c := range kids {
		if i == 0 {
			c.Field = first
		} else {
			c.Field = rest
		}
	}
}

// Walk visits n and its descendants in pre-order; when visit returns false
// the node's children are skipped.
func (n *Node) Walk(visit func(*Node) bool) {
	if n == nil || !visit(n) {
		return
	}
	for _, c := range n.Children {
		c.Walk(visit)
	}
}

// FindAll returns every node of the given type under n (n included), in
// pre-order.
func (n *Node) FindAll(nodeType string) []*Node {
	var out []*Node
	n.Walk(func(x *Node) bool {
		if x.Type == nodeType {
			out = append(out, x)
		}
		return true
	})
	return out
}

// Child returns the first direct child held under the given property, or nil.
func (n *Node) Child(field string) *Node {
	for _, c := range n.Children {
		if c.Field == field {
			return c
		}
	}
	return nil
}

// ChildrenOf returns the direct children held under the given property.
func (n *Node) ChildrenOf(field string) []*Node {
	var out []*Node
	for _, c := range n.Children {
		if c.Field == field {
			out = append(out, c)
		}
	}
	return out
}

// Str returns a string attribute ("" if absent or not a string).
func (n *Node) Str(key string) string {
	s, _ := n.Attrs[key].(string)
	return s
}

// Bool returns a boolean attribute (false if absent or not a bool).
func (n *Node) Bool(key string) bool {
	b, _ := n.Attrs[key].(bool)
	return b
}

// RefDecl is the id of the declaration an identifier or member access
// refers to (referencedDeclaration); -1 when it names none.
func (n *Node) RefDecl() int {
	if n == nil {
		return -1
	}
	if f, ok := n.Attrs["referencedDeclaration"].(float64); ok {
		return int(f)
	}
	return -1
}

// MemberName is a member access's member, in either AST form.
func (n *Node) MemberName() string {
	if s := n.Str("memberName"); s != "" {
		return s
	}
	return n.Str("member_name")
}

// Unparen strips the parentheses around an expression (one-element tuples).
func Unparen(n *Node) *Node {
	for n != nil && n.Type == "TupleExpression" && len(n.Children) == 1 {
		n = n.Children[0]
	}
	return n
}
