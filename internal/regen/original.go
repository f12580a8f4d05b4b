package regen

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strconv"

	"github.com/solbehave/solbehave/internal/atomicfile"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/redact"
	"github.com/solbehave/solbehave/internal/skeleton"
	"github.com/solbehave/solbehave/internal/solast"
	"github.com/solbehave/solbehave/internal/solc"
	"github.com/solbehave/solbehave/internal/warehouse"
)

// OriginalOf is the original of a record, read from its compiler output:
// its files with every file's AST, the target contract's file and the
// compiler that built it.
func OriginalOf(rec *deploy.Record, out *solc.Output) (*Original, string, error) {
	if rec.Files == nil {
		return nil, "", fmt.Errorf("%s has no source files", rec.Entry.ID)
	}
	c, err := rec.Target(out)
	if err != nil {
		return nil, "", err
	}
	if _, ok := rec.Files.Files[c.File]; !ok {
		return nil, "", fmt.Errorf("the compiler output names file %s, which the record does not hold", c.File)
	}
	asts := make(map[string]*solast.Node, len(rec.Files.Files))
	for name, text := range rec.Files.Files {
		src := out.Sources[name]
		if src == nil {
			return nil, "", fmt.Errorf("the compiler output has no AST for %s", name)
		}
		if asts[name], err = solast.ParseWithSource(src.AST, text); err != nil {
			return nil, "", fmt.Errorf("%s: %w", name, err)
		}
	}
	return &Original{Files: rec.Files.Files, File: c.File, ASTs: asts, Compiler: out.CompilerUsed}, c.Name, nil
}

// SkeletonInput is what the skeleton of o's target is built from.
func (o *Original) SkeletonInput(target, scope string) skeleton.Input {
	return skeleton.Input{Files: o.Files, File: o.File, Target: target, ASTs: o.ASTs, Scope: scope}
}

// SampleDir is where a contract's samples of one model live, relative to
// the data root: samples/<contract_id>/<model>, both sanitised.
func SampleDir(contractID, model string) string {
	return path.Join("samples", warehouse.Sanitize(contractID), warehouse.Sanitize(model))
}

// WriteSampleFile writes a sample's file under data, secrets masked; rel is
// built from ids and names that come from outside, so it must stay below
// data.
func WriteSampleFile(data, rel string, b []byte) error {
	if !filepath.IsLocal(filepath.FromSlash(rel)) {
		return fmt.Errorf("sample path %q would leave %s", rel, data)
	}
	return atomicfile.WriteFile(filepath.Join(data, filepath.FromSlash(rel)), redact.Bytes(b), 0o644)
}

// ReadSampleFiles reads a multi-file sample's files (the JSON object of
// file name to text a generator wrote at rel, below data).
func ReadSampleFiles(data, rel string) (map[string]string, error) {
	b, err := os.ReadFile(filepath.Join(data, filepath.FromSlash(rel)))
	if err != nil {
		return nil, err
	}
	var files map[string]string
	if err := json.Unmarshal(b, &files); err != nil {
		return nil, err
	}
	return files, nil
}

// SamplePath is the target file of sample k, relative to the data root.
func SamplePath(contractID, model string, k int) string {
	return path.Join(SampleDir(contractID, model), strconv.Itoa(k)+".sol")
}
