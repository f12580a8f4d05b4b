package solast

import (
	"encoding/json"
	"strings"
)

// ParseWithSource is Parse plus recovery of what the oldest legacy ASTs
// leave out: 0.4.9/0.4.10 give a VariableDeclaration only its name and
// type, so its visibility, `constant`, `indexed` and data location are read
// back from the declaration's text in source (the file the AST is of).
func ParseWithSource(raw json.RawMessage, source string) (*Node, error) {
	root, err := Parse(raw)
	if err != nil {
		return nil, err
	}
	FillFromSource(root, source)
	return root, nil
}

// declKeywords are the words that may stand between a variable's type and
// its name.
var declKeywords = map[string]string{
	"public": "visibility", "private": "visibility", "internal": "visibility", "external": "visibility",
	"constant": "constant", "indexed": "indexed",
	"memory": "storageLocation", "storage": "storageLocation", "calldata": "storageLocation",
}

// FillFromSource adds the attributes a bare legacy VariableDeclaration
// lacks (see ParseWithSource). Nodes that carry any of them are left alone.
func FillFromSource(root *Node, source string) {
	root.Walk(func(n *Node) bool {
		if n.Type == "VariableDeclaration" && isBareDeclaration(n) {
			fillDeclaration(n, source)
		}
		return true
	})
}

func isBareDeclaration(n *Node) bool {
	for _, k := range []string{"visibility", "constant", "indexed", "storageLocation", "stateVariable"} {
		if _, ok := n.Attrs[k]; ok {
			return false
		}
	}
	return true
}

func fillDeclaration(n *Node, source string) {
	tn := n.Child("typeName")
	if tn == nil || tn.Src.End() > n.Src.End() || n.Src.End() > len(source) || tn.Src.End() < 0 {
		return
	}
	words := source[tn.Src.End():n.Src.End()]
	if i := strings.IndexByte(words, '='); i >= 0 {
		words = words[:i] // not into the initial value
	}
	for _, w := range strings.Fields(words) {
		switch declKeywords[w] {
		case "visibility", "storageLocation":
			n.Attrs[declKeywords[w]] = w
		case "constant", "indexed":
			n.Attrs[w] = true
		}
	}
}
