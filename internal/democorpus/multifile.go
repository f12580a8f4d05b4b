package democorpus

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/solbehave/solbehave/internal/soltext"
)

// ozImport is how the multi-file contracts import OpenZeppelin Contracts,
// as a Hardhat project does: by the npm package's path. The standard-JSON
// input names the files the same way, so it needs no remapping.
const ozImport = "@openzeppelin/contracts/"

// ozDir holds the OpenZeppelin Contracts files, one folder per release, under
// third_party/ because they are the npm package's code, not the project's.
const ozDir = "contracts/third_party/openzeppelin"

// MultiFile says whether the contract is recorded as Etherscan records a
// multi-file source: its standard-JSON input.
func (c Spec) MultiFile() bool { return c.OZ != "" }

// Files is the contract's source files as the compiler reads them, and the
// name of the file that defines the contract. A multi-file contract has its
// own files (contracts/multi/<Name>/) and every OpenZeppelin file they
// import, directly or not (contracts/third_party/openzeppelin/<version>/), and
// nothing else.
func (c Spec) Files() (map[string]string, string, error) {
	if !c.MultiFile() {
		src, err := c.Source()
		return map[string]string{c.Name + ".sol": src}, c.Name + ".sol", err
	}
	files, err := c.ownFiles()
	if err != nil {
		return nil, "", err
	}
	if err := c.addImports(files); err != nil {
		return nil, "", err
	}
	return files, c.Root, nil
}

// ownFiles reads contracts/multi/<Name>/, keyed by the path under it.
func (c Spec) ownFiles() (map[string]string, error) {
	files := map[string]string{}
	dir := "contracts/multi/" + c.Name
	err := fs.WalkDir(Sources, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := Sources.ReadFile(p)
		files[strings.TrimPrefix(p, dir+"/")] = string(b)
		return err
	})
	if err != nil && !strings.HasPrefix(c.Root, ozImport) {
		return nil, fmt.Errorf("democorpus: sources of %s: %w", c.Name, err)
	}
	return files, nil
}

// addImports adds, breadth first, every file the files import (the root
// too, when OpenZeppelin defines the contract itself).
func (c Spec) addImports(files map[string]string) error {
	queue := sortedNames(files)
	if _, ok := files[c.Root]; !ok {
		src, err := c.ozFile(c.Root)
		if err != nil {
			return err
		}
		files[c.Root] = src
		queue = append(queue, c.Root)
	}
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		for _, imp := range imports(files[name]) {
			key := imp
			if strings.HasPrefix(imp, ".") {
				key = path.Join(path.Dir(name), imp)
			}
			if _, ok := files[key]; ok {
				continue
			}
			src, err := c.ozFile(key)
			if err != nil {
				return fmt.Errorf("democorpus: %s imports %q: %w", name, imp, err)
			}
			files[key] = src
			queue = append(queue, key)
		}
	}
	return nil
}

// ozFile reads an OpenZeppelin file of the spec's release.
func (c Spec) ozFile(key string) (string, error) {
	rel, ok := strings.CutPrefix(key, ozImport)
	if !ok {
		return "", fmt.Errorf("%s is neither the contract's own file nor OpenZeppelin's", key)
	}
	b, err := Sources.ReadFile(ozDir + "/" + c.OZ + "/" + rel)
	return string(b), err
}

// importPath finds the path of every import directive: `import "p";`,
// `import "p" as x;`, `import {a, b as c} from "p";`, `import * as x from "p";`.
var importPath = regexp.MustCompile(`\bimport\s+(?:[^;"']*?\s*from\s*)?["']([^"']+)["']`)

func imports(src string) []string {
	var out []string
	for _, m := range importPath.FindAllStringSubmatch(soltext.BlankComments(src), -1) {
		out = append(out, m[1])
	}
	return out
}

func sortedNames(files map[string]string) []string {
	out := make([]string, 0, len(files))
	for k := range files {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// standardInput is the compiler input a Hardhat project submits to
// Etherscan for verification; Etherscan answers it back as SourceCode.
type standardInput struct {
	Language string                     `json:"language"`
	Sources  map[string]standardContent `json:"sources"`
	Settings standardSettings           `json:"settings"`
}

type standardContent struct {
	Content string `json:"content"`
}

type standardSettings struct {
	Optimizer       optimizerSettings              `json:"optimizer"`
	EVMVersion      string                         `json:"evmVersion,omitempty"`
	OutputSelection map[string]map[string][]string `json:"outputSelection"`
	Libraries       map[string]map[string]string   `json:"libraries,omitempty"`
}

type optimizerSettings struct {
	Enabled bool `json:"enabled"`
	Runs    int  `json:"runs"`
}

// hardhatOutput is the outputSelection Hardhat asks for.
var hardhatOutput = map[string]map[string][]string{"*": {
	"*": {"abi", "evm.bytecode", "evm.deployedBytecode", "evm.methodIdentifiers", "metadata"},
	"":  {"ast"},
}}

// standardJSON is the spec's standard-JSON input, its libraries linked at
// the given addresses (file -> library -> 0x address).
func (c Spec) standardJSON(files map[string]string, libraries map[string]map[string]string) ([]byte, error) {
	in := standardInput{Language: "Solidity", Sources: map[string]standardContent{},
		Settings: standardSettings{Optimizer: optimizerSettings{Enabled: c.Optimize, Runs: 200},
			EVMVersion: c.EVMVersion, OutputSelection: hardhatOutput, Libraries: libraries}}
	for name, src := range files {
		in.Sources[name] = standardContent{Content: src}
	}
	return json.MarshalIndent(in, "", "  ")
}

// etherscanSourceCode is SourceCode as Etherscan answers it for a contract
// verified from a standard-JSON input: the input between an extra pair of
// braces, its lines ending in CRLF.
func etherscanSourceCode(input []byte) string {
	return "{" + string(bytes.ReplaceAll(input, []byte("\n"), []byte("\r\n"))) + "}"
}

// libraryFiles maps each library the spec links to the file that defines it.
func libraryFiles(files map[string]string, names []string) (map[string]string, error) {
	out := map[string]string{}
	for _, name := range names {
		for _, file := range sortedNames(files) {
			if d, ok := soltext.FindContract(files[file], name); ok && d.Kind == "library" {
				out[name] = file
			}
		}
		if out[name] == "" {
			return nil, fmt.Errorf("democorpus: no file defines library %s", name)
		}
	}
	return out, nil
}
