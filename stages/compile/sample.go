package compile

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"time"

	"github.com/solbehave/solbehave/internal/atomicfile"
	"github.com/solbehave/solbehave/internal/failure"
	"github.com/solbehave/solbehave/internal/llm"
	"github.com/solbehave/solbehave/internal/redact"
	"github.com/solbehave/solbehave/internal/regen"
	"github.com/solbehave/solbehave/schemas"
)

type repairCall struct {
	row       schemas.LLMCall
	transient bool
}

// sample compiles one generated sample, repairing it once when allowed.
func (s *Stage) sample(ctx context.Context, c *compiler, g schemas.Generation) (schemas.Sample, *repairCall, error) {
	row := schemas.Sample{ContractID: g.ContractID, Model: g.Model, Sample: g.Sample, Generator: g.Generator,
		SourcePath: g.SourcePath, SourceSHA256: g.SourceSHA256, Mutations: g.Mutations, NMutated: g.NMutated,
		FunctionsGenerated: g.FunctionsGenerated, FunctionsFailed: g.FunctionsFailed, GenerationMS: g.GenerationMS,
		Ablation: g.Ablation, FilesPath: g.FilesPath}
	if g.Error != "" || g.SourcePath == "" {
		row.Error, row.RawError = orText(g.Error, "nothing was generated"), orText(g.Error, "nothing was generated")
		return row, nil, nil
	}
	files, err := c.readSample(g)
	if err != nil {
		return row, nil, failure.New(failure.Sample, true, err)
	}
	res, err := c.compile(ctx, files)
	if err != nil {
		return row, nil, err
	}
	res.fill(&row)
	row.RawError = row.Error
	row.CompiledRaw = res.OK
	if res.OK || g.Generator != regen.KindOpenAI || !s.Repair {
		return row, nil, nil
	}
	return s.repair(ctx, c, g, files, res, row)
}

// repair sends one repair request and compiles its result.
func (s *Stage) repair(ctx context.Context, c *compiler, g schemas.Generation, files map[string]string, raw outcome, row schemas.Sample) (schemas.Sample, *repairCall, error) {
	client, err := s.client(c.env, g.Model)
	if err != nil {
		return row, nil, failure.New(failure.LLM, false, err)
	}
	row.RepairAttempted = true
	start := time.Now()
	file := c.file(files)
	task := regen.RepairTask{ContractID: g.ContractID, Model: g.Model, Sample: int(g.Sample), Seed: g.Seed,
		Files: files, File: file, Target: c.target, Compiler: c.rec.Source.CompilerVersion, Error: raw.Formatted,
		Temperature: s.RepairTemperature, MaxTokens: s.RepairMaxTokens}
	repaired, call, err := regen.Repair(ctx, client, task)
	row.RepairMS = time.Since(start).Milliseconds()
	rc := &repairCall{row: call, transient: llm.IsTransient(err)}
	if err != nil {
		return row, rc, nil // still the raw outcome: compiled_repaired = compiled_raw = false
	}
	if err := writeRepaired(c.env.Data, g, file, repaired, &row); err != nil {
		return row, rc, err
	}
	res, err := c.compile(ctx, repaired)
	if err != nil {
		return row, rc, err
	}
	res.fill(&row)
	return row, rc, nil
}

// writeRepaired stores a repaired sample beside the generated one: its
// target file (<k>.repaired.sol) and, for a multi-file source, every file
// (<k>.repaired.files.json: a repair may fix a base in another file).
func writeRepaired(data string, g schemas.Generation, file string, files map[string]string, row *schemas.Sample) error {
	base := path.Join(regen.SampleDir(g.ContractID, g.Model), strconv.Itoa(int(g.Sample))+".repaired")
	target := []byte(files[file])
	if err := writeFile(data, base+".sol", target); err != nil {
		return err
	}
	sum := sha256.Sum256(target)
	row.SourcePath, row.SourceSHA256 = base+".sol", hex.EncodeToString(sum[:])
	if g.FilesPath == "" {
		return nil
	}
	b, err := json.Marshal(files)
	if err != nil {
		return err
	}
	row.FilesPath = base + ".files.json"
	return writeFile(data, row.FilesPath, b)
}

// readSample reads every file of a sample.
func (c *compiler) readSample(g schemas.Generation) (map[string]string, error) {
	data := c.env.Data
	if g.FilesPath != "" {
		b, err := os.ReadFile(filepath.Join(data, filepath.FromSlash(g.FilesPath)))
		if err != nil {
			return nil, err
		}
		var files map[string]string
		if err := json.Unmarshal(b, &files); err != nil {
			return nil, err
		}
		return files, nil
	}
	name, err := c.soleFile()
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(filepath.Join(data, filepath.FromSlash(g.SourcePath)))
	if err != nil {
		return nil, err
	}
	return map[string]string{name: string(b)}, nil
}

func orText(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// writeFile writes a sample file under data, secrets masked; rel is built
// from ids and names that come from outside, so it must stay below data.
func writeFile(data, rel string, b []byte) error {
	if !filepath.IsLocal(filepath.FromSlash(rel)) {
		return fmt.Errorf("sample path %q would leave %s", rel, data)
	}
	return atomicfile.WriteFile(filepath.Join(data, filepath.FromSlash(rel)), redact.Bytes(b), 0o644)
}
