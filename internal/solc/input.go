package solc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/solbehave/solbehave/internal/soltext"
)

// job is an Input with its sources and settings resolved.
type job struct {
	in        Input
	requested string
	sources   map[string]string
	settings  map[string]json.RawMessage // from StandardJSON, minus outputSelection
}

func prepare(in Input) (*job, error) {
	j := &job{in: in, requested: in.Compiler, sources: in.Sources, settings: map[string]json.RawMessage{}}
	if len(bytes.TrimSpace(in.StandardJSON)) > 0 {
		if err := j.readStandardJSON(in.StandardJSON); err != nil {
			return nil, err
		}
	}
	if len(j.sources) == 0 {
		return nil, errors.New("solc: no sources to compile")
	}
	if j.requested == "" {
		v, err := pragmaOfSources(j.sources)
		if err != nil {
			return nil, err
		}
		j.requested = v
	}
	return j, nil
}

// readStandardJSON takes sources and settings from a standard-JSON input;
// Etherscan stores it wrapped in an extra pair of braces.
func (j *job) readStandardJSON(raw []byte) error {
	raw = bytes.TrimSpace(raw)
	if bytes.HasPrefix(raw, []byte("{{")) && bytes.HasSuffix(raw, []byte("}}")) {
		raw = raw[1 : len(raw)-1]
	}
	var doc struct {
		Language string                                `json:"language"`
		Sources  map[string]*struct{ Content *string } `json:"sources"`
		Settings map[string]json.RawMessage            `json:"settings"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return fmt.Errorf("solc: bad standard JSON input: %w", err)
	}
	if doc.Language != "" && doc.Language != "Solidity" {
		return fmt.Errorf("solc: standard JSON language %q is not supported (Solidity only)", doc.Language)
	}
	j.sources = map[string]string{}
	for name, s := range doc.Sources {
		if s == nil || s.Content == nil {
			return fmt.Errorf("solc: standard JSON source %q has no content (urls are not fetched)", name)
		}
		j.sources[name] = *s.Content
	}
	if doc.Settings != nil {
		j.settings = doc.Settings
	}
	delete(j.settings, "outputSelection")
	return nil
}

// pragmaOfSources picks the newest release every source's pragmas admit.
func pragmaOfSources(sources map[string]string) (string, error) {
	var all []versionRange
	for _, name := range slices.Sorted(maps.Keys(sources)) {
		ranges, err := pragmaRanges(sources[name])
		if errors.Is(err, ErrNoPragma) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("%w: %s: %v", ErrUnknownVersion, name, err)
		}
		all = append(all, ranges...)
	}
	if len(all) == 0 {
		return "", fmt.Errorf("%w: no compiler named and no pragma solidity in the sources", ErrUnknownVersion)
	}
	return newestAdmitted(all)
}

var addressPattern = regexp.MustCompile(`^0x[0-9a-fA-F]{40}$`)

// standardInput builds the standard-JSON input for rel, returning notes
// about settings the release cannot take.
func (j *job) standardInput(rel Release) ([]byte, []Diagnostic, error) {
	v, _, err := parseVersion(rel.Version)
	if err != nil {
		return nil, nil, err
	}
	settings := map[string]any{}
	for k, raw := range j.settings {
		settings[k] = raw
	}
	var notes []Diagnostic
	if _, ok := settings["optimizer"]; !ok {
		runs := j.in.Runs
		if runs <= 0 {
			runs = 200
		}
		settings["optimizer"] = map[string]any{"enabled": j.in.Optimize, "runs": runs}
	}
	if _, ok := settings["evmVersion"]; !ok && j.in.EVMVersion != "" {
		if v.less(semver{0, 4, 21}) {
			notes = append(notes, note(fmt.Sprintf("evmVersion %q ignored: solc %s predates the setting", j.in.EVMVersion, v)))
		} else {
			settings["evmVersion"] = j.in.EVMVersion
		}
	}
	if err := j.mergeLibraries(settings); err != nil {
		return nil, nil, err
	}
	settings["outputSelection"] = outputSelection(v, j.codeFor(), !j.in.NoASTs)
	sources := map[string]map[string]string{}
	for name, content := range j.sources {
		sources[name] = map[string]string{"content": content}
	}
	input, err := json.Marshal(map[string]any{"language": "Solidity", "sources": sources, "settings": settings})
	return input, notes, err
}

func (j *job) mergeLibraries(settings map[string]any) error {
	if len(j.in.Libraries) == 0 {
		return nil
	}
	libs := map[string]map[string]string{}
	if raw, ok := settings["libraries"].(json.RawMessage); ok {
		if err := json.Unmarshal(raw, &libs); err != nil {
			return fmt.Errorf("solc: bad settings.libraries: %w", err)
		}
	}
	for file, byName := range j.in.Libraries {
		if libs[file] == nil {
			libs[file] = map[string]string{}
		}
		for name, addr := range byName {
			if !addressPattern.MatchString(addr) {
				return fmt.Errorf("solc: library %s:%s: %q is not a 0x-prefixed 20-byte address", file, name, addr)
			}
			libs[file][name] = addr
		}
	}
	settings["libraries"] = libs
	return nil
}

// outputSelection asks for what later stages use; legacyAST only where the
// compact AST is missing (before 0.4.12: from there on the compact one is
// written and used, and a legacy one asked for too is written for nothing,
// about a fifth of a 0.4 compile), storageLayout where offered.
// With names, only those contracts get bytecode (Input.Targets).
func outputSelection(v semver, names []string, asts bool) map[string]any {
	analysis := []string{"abi"}
	if !v.less(semver{0, 5, 13}) {
		analysis = append(analysis, "storageLayout")
	}
	code := append(slices.Clone(analysis),
		"evm.bytecode.object", "evm.bytecode.sourceMap", "evm.bytecode.linkReferences",
		"evm.deployedBytecode.object", "evm.deployedBytecode.sourceMap", "evm.deployedBytecode.linkReferences")
	perFile := []string{}
	if asts {
		perFile = append(perFile, "ast")
		if v.less(semver{0, 4, 12}) {
			perFile = append(perFile, "legacyAST")
		}
	}
	if len(names) == 0 {
		return map[string]any{"*": map[string]any{"*": code, "": perFile}}
	}
	all := map[string]any{"*": analysis, "": perFile}
	for _, n := range names {
		all[n] = code
	}
	return map[string]any{"*": all}
}

// codeFor is the contract names that get bytecode, sorted: nil (every
// contract) without targets, else the targets' and the sources' libraries'.
// A name stands for that contract in every file, as Output.Contract reads
// a bare name.
func (j *job) codeFor() []string {
	if len(j.in.Targets) == 0 {
		return nil
	}
	names := map[string]bool{}
	for _, t := range j.in.Targets {
		names[t[strings.LastIndex(t, ":")+1:]] = true
	}
	for _, src := range j.sources {
		for _, d := range soltext.Definitions(src) {
			if d.Kind == "library" {
				names[d.Name] = true
			}
		}
	}
	return slices.Sorted(maps.Keys(names))
}

func note(msg string) Diagnostic {
	return Diagnostic{Severity: "info", Type: "Info", Message: msg, Formatted: msg, Start: -1, End: -1}
}
