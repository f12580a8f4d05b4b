package solc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

type stdOutput struct {
	Errors  []stdError `json:"errors"`
	Sources map[string]struct {
		ID        json.RawMessage `json:"id"`
		AST       json.RawMessage `json:"ast"`
		LegacyAST json.RawMessage `json:"legacyAST"`
	} `json:"sources"`
	Contracts map[string]map[string]stdContract `json:"contracts"`
}

type stdError struct {
	Severity         string `json:"severity"`
	Type             string `json:"type"`
	Message          string `json:"message"`
	FormattedMessage string `json:"formattedMessage"`
	SourceLocation   *struct {
		File       string `json:"file"`
		Start, End int
	} `json:"sourceLocation"`
}

type stdContract struct {
	ABI           json.RawMessage `json:"abi"`
	StorageLayout json.RawMessage `json:"storageLayout"`
	EVM           struct {
		Bytecode         stdBytecode `json:"bytecode"`
		DeployedBytecode stdBytecode `json:"deployedBytecode"`
	} `json:"evm"`
}

type stdBytecode struct {
	Object         string          `json:"object"`
	SourceMap      string          `json:"sourceMap"`
	LinkReferences json.RawMessage `json:"linkReferences"`
}

func parseOutput(raw []byte, sources map[string]string, compiler string) (*Output, error) {
	var so stdOutput
	if err := json.Unmarshal(raw, &so); err != nil {
		return nil, fmt.Errorf("%w: compiler output is not JSON: %v", ErrWorkerCrashed, err)
	}
	out := &Output{Contracts: map[string]map[string]*Contract{}, Sources: map[string]*Source{}}
	var diags []Diagnostic
	failed := false
	for _, e := range so.Errors {
		d := diagnostic(e, sources)
		diags = append(diags, d)
		if d.Severity == "error" {
			failed = true
		} else {
			out.Warnings = append(out.Warnings, d)
		}
	}
	if failed {
		return nil, &CompileError{Compiler: compiler, Diagnostics: diags}
	}
	for file, s := range so.Sources {
		src, err := source(s.ID, s.AST, s.LegacyAST)
		if err != nil {
			return nil, fmt.Errorf("solc: source %s: %w", file, err)
		}
		out.Sources[file] = src
	}
	for file, byName := range so.Contracts {
		out.Contracts[file] = map[string]*Contract{}
		for name, sc := range byName {
			c, err := contract(file, name, sc)
			if err != nil {
				return nil, err
			}
			out.Contracts[file][name] = c
		}
	}
	return out, nil
}

func source(id, ast, legacy json.RawMessage) (*Source, error) {
	n, err := parseID(id)
	if err != nil {
		return nil, err
	}
	s := &Source{ID: n}
	switch {
	case present(ast):
		s.AST, s.LegacyAST = sortedDependencies(ast), !isCompactAST(ast)
	case present(legacy):
		s.AST, s.LegacyAST = sortedDependencies(legacy), true
	}
	return s, nil
}

// contractDependencies matches a contract's contractDependencies list in an
// AST (compact or legacy). The list is a set, and solc 0.4.x writes it in the
// order of its objects' memory addresses: a warm worker compiles the same
// input to different orders, which would give one output several artifact ids.
var contractDependencies = regexp.MustCompile(`"contractDependencies"\s*:\s*\[([0-9,\s]*)\]`)

// sortedDependencies writes every contractDependencies list of ast in
// ascending order; a list already in order, and the rest of ast, stay as
// they are, byte for byte.
func sortedDependencies(ast json.RawMessage) json.RawMessage {
	return contractDependencies.ReplaceAllFunc(ast, func(m []byte) []byte {
		list := contractDependencies.FindSubmatch(m)[1]
		var ids []int
		for _, f := range strings.FieldsFunc(string(list), func(r rune) bool { return r == ',' || unicode.IsSpace(r) }) {
			id, err := strconv.Atoi(f)
			if err != nil {
				return m
			}
			ids = append(ids, id)
		}
		if slices.IsSorted(ids) {
			return m
		}
		slices.Sort(ids)
		sorted := make([]string, len(ids))
		for i, id := range ids {
			sorted[i] = strconv.Itoa(id)
		}
		return []byte(`"contractDependencies":[` + strings.Join(sorted, ",") + `]`)
	})
}

// parseID reads a source ID; the wrapper's translation of old outputs gives
// it as a string.
func parseID(raw json.RawMessage) (int, error) {
	if !present(raw) {
		return -1, nil
	}
	var n int
	if json.Unmarshal(raw, &n) == nil {
		return n, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return 0, fmt.Errorf("bad source id %s", raw)
	}
	return strconv.Atoi(s)
}

func present(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) > 0 && !bytes.Equal(t, []byte("null"))
}

func isCompactAST(raw json.RawMessage) bool {
	var probe struct {
		NodeType *string `json:"nodeType"`
	}
	return json.Unmarshal(raw, &probe) == nil && probe.NodeType != nil
}

func contract(file, name string, sc stdContract) (*Contract, error) {
	c := &Contract{
		File:             file,
		Name:             name,
		ABI:              sc.ABI,
		Creation:         strings.TrimPrefix(sc.EVM.Bytecode.Object, "0x"),
		Runtime:          strings.TrimPrefix(sc.EVM.DeployedBytecode.Object, "0x"),
		SourceMap:        sc.EVM.Bytecode.SourceMap,
		RuntimeSourceMap: sc.EVM.DeployedBytecode.SourceMap,
	}
	if present(sc.StorageLayout) {
		c.StorageLayout = sc.StorageLayout
	}
	var err error
	if c.LinkReferences, err = linkReferences(sc.EVM.Bytecode.LinkReferences); err != nil {
		return nil, fmt.Errorf("solc: %s:%s: %w", file, name, err)
	}
	if c.RuntimeLinkReferences, err = linkReferences(sc.EVM.DeployedBytecode.LinkReferences); err != nil {
		return nil, fmt.Errorf("solc: %s:%s: %w", file, name, err)
	}
	return c, nil
}

// linkReferences reads file -> library -> slots; the wrapper's translation
// of old outputs gives label -> slots instead, label being "file:Name".
func linkReferences(raw json.RawMessage) (map[string]map[string][]LinkRef, error) {
	if !present(raw) || bytes.HasPrefix(bytes.TrimSpace(raw), []byte(`"`)) { // "" when there is no code
		return nil, nil
	}
	var nested map[string]map[string][]LinkRef
	if json.Unmarshal(raw, &nested) == nil {
		return emptyToNil(nested), nil
	}
	var flat map[string][]LinkRef
	if err := json.Unmarshal(raw, &flat); err != nil {
		return nil, fmt.Errorf("bad linkReferences: %v", err)
	}
	nested = map[string]map[string][]LinkRef{}
	for label, refs := range flat {
		file, lib := "", label
		if i := strings.LastIndex(label, ":"); i >= 0 {
			file, lib = label[:i], label[i+1:]
		}
		if nested[file] == nil {
			nested[file] = map[string][]LinkRef{}
		}
		nested[file][lib] = refs
	}
	return emptyToNil(nested), nil
}

func emptyToNil(m map[string]map[string][]LinkRef) map[string]map[string][]LinkRef {
	if len(m) == 0 {
		return nil
	}
	return m
}

// legacyHeader parses old messages: "file.sol:3:5: ParserError: ...".
var legacyHeader = regexp.MustCompile(`^(?:([^\n]*?):(\d+):(\d+): )?([A-Za-z]+): `)

func diagnostic(e stdError, sources map[string]string) Diagnostic {
	d := Diagnostic{
		Severity:  strings.ToLower(e.Severity),
		Type:      e.Type,
		Message:   e.Message,
		Formatted: e.FormattedMessage,
		Start:     -1,
		End:       -1,
	}
	if d.Formatted == "" {
		d.Formatted = e.Message
	}
	if e.SourceLocation != nil {
		d.File, d.Start, d.End = e.SourceLocation.File, e.SourceLocation.Start, e.SourceLocation.End
	}
	m := legacyHeader.FindStringSubmatch(strings.TrimSpace(d.Formatted))
	if m == nil {
		return d
	}
	if d.Type == "" || strings.ContainsAny(d.Type, ": ") {
		d.Type = m[4] // the wrapper's translation mangles the type
	}
	if e.SourceLocation == nil && m[1] != "" {
		line, _ := strconv.Atoi(m[2])
		col, _ := strconv.Atoi(m[3])
		d.File = m[1]
		if off, ok := offsetOf(sources[m[1]], line, col); ok {
			d.Start, d.End = off, off
		}
	}
	return d
}

// offsetOf turns a 1-based line and column into a byte offset.
func offsetOf(text string, line, col int) (int, bool) {
	if line < 1 || col < 1 {
		return 0, false
	}
	off := 0
	for l := 1; l < line; l++ {
		i := strings.IndexByte(text[off:], '\n')
		if i < 0 {
			return 0, false
		}
		off += i + 1
	}
	off += col - 1
	return off, off <= len(text)
}
