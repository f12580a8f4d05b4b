package verify

import (
	"encoding/hex"
	"sort"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"

	"github.com/solbehave/solbehave/internal/solast"
	"github.com/solbehave/solbehave/internal/solc"
	"github.com/solbehave/solbehave/internal/soltext"
	"github.com/solbehave/solbehave/schemas"
)

// definition is a contract definition found in a compile output's ASTs.
type definition struct {
	contract solast.Contract
	file     string
}

// functionRows lists the functions of target and of the contracts it
// inherits from, matched to target's ABI.
func functionRows(contractID string, out *solc.Output, target *solc.Contract, sources map[string]string) []schemas.Function {
	defs := definitions(out, sources)
	parsed, _ := parseABI(target)
	var rows []schemas.Function
	for _, d := range lineage(defs, target.Name) {
		for _, f := range solast.Functions(d.contract.Node) {
			rows = append(rows, functionRow(contractID, d, f, parsed))
		}
	}
	return rows
}

func definitions(out *solc.Output, sources map[string]string) map[string]definition {
	defs := map[string]definition{}
	files := make([]string, 0, len(out.Sources))
	for f := range out.Sources {
		files = append(files, f)
	}
	sort.Slice(files, func(i, j int) bool { return out.Sources[files[i]].ID < out.Sources[files[j]].ID })
	for _, file := range files {
		root, err := solast.ParseWithSource(out.Sources[file].AST, sources[file])
		if err != nil {
			continue
		}
		for _, c := range solast.Contracts(root) {
			defs[c.Name] = definition{contract: c, file: file} // the last file wins, as in solc.Output.Contract
		}
	}
	return defs
}

// lineage is the target followed by its bases, breadth first, each once.
func lineage(defs map[string]definition, target string) []definition {
	var out []definition
	seen := map[string]bool{}
	queue := []string{target}
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		d, ok := defs[name]
		if !ok || seen[name] {
			continue
		}
		seen[name] = true
		out = append(out, d)
		queue = append(queue, d.contract.Bases...)
	}
	return out
}

func functionRow(contractID string, d definition, f solast.Function, parsed abi.ABI) schemas.Function {
	row := schemas.Function{
		ContractID: contractID, DefinedIn: d.contract.Name, Name: f.Name, Kind: f.Kind,
		Mutability: f.StateMutability, Visibility: f.Visibility, Modifiers: strings.Join(f.Modifiers, ","),
		SourceFile: d.file, SourceStart: int64(f.Src.Start), SourceLen: int64(f.Src.Length), HasBody: f.BodySrc != nil,
	}
	row.Nontrivial = row.HasBody && soltext.IsNontrivial(f.Kind, f.StateMutability)
	if f.Kind == "function" && (f.Visibility == "public" || f.Visibility == "external") {
		if m, ok := matchMethod(parsed, f); ok {
			row.Selector, row.Signature = "0x"+hex.EncodeToString(m.ID), m.Sig
		}
	}
	return row
}

// matchMethod finds f's ABI entry: by name, then by arity among overloads.
func matchMethod(parsed abi.ABI, f solast.Function) (abi.Method, bool) {
	var found []abi.Method
	for _, m := range parsed.Methods {
		if m.RawName == f.Name && len(m.Inputs) == len(f.Params) {
			found = append(found, m)
		}
	}
	if len(found) != 1 {
		return abi.Method{}, false
	}
	return found[0], true
}
