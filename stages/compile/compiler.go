package compile

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/solbehave/solbehave/internal/artifact"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/failure"
	"github.com/solbehave/solbehave/internal/regen"
	"github.com/solbehave/solbehave/internal/solc"
	"github.com/solbehave/solbehave/internal/soltext"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

// compiler compiles samples of one record, through the outcome cache.
type compiler struct {
	env    *pipeline.Env
	rec    *deploy.Record
	target string
	ref    *reference // the interface samples keep, read at the first compiled sample
}

// outcome is a compile's result as the samples dataset needs it.
type outcome struct {
	OK           bool   `json:"ok"`
	Error        string `json:"error"`     // first error, short
	Formatted    string `json:"formatted"` // first error with its source excerpt (for the repair prompt)
	Artifact     string `json:"artifact"`
	CreationSHA  string `json:"creation_sha256"`
	CompilerUsed string `json:"compiler_used"`
}

func (o outcome) fill(row *schemas.Sample) {
	row.CompiledRepaired, row.Error, row.Artifact = o.OK, o.Error, o.Artifact
	row.CreationCodeSHA256, row.CompilerUsed = o.CreationSHA, o.CompilerUsed
}

// file is the name of the file that defines the target contract.
func (c *compiler) file(files map[string]string) string {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if _, ok := soltext.FindContract(files[n], c.target); ok {
			return n
		}
	}
	return names[0]
}

// soleFile is the record's file name when it has exactly one.
func (c *compiler) soleFile() (string, error) {
	if c.rec.Files == nil || len(c.rec.Files.Files) != 1 {
		return "", errors.New("a single-file sample of a multi-file source")
	}
	for n := range c.rec.Files.Files {
		return n, nil
	}
	return "", nil
}

func (c *compiler) compile(ctx context.Context, files map[string]string) (outcome, error) {
	in, err := regen.CompileInput(c.rec, files)
	if err != nil {
		return outcome{}, failure.New(failure.Source, false, err)
	}
	// A sample is deployed and called, never analysed: code for the target
	// (and libraries) only, no syntax trees.
	in.Targets, in.NoASTs = []string{c.target}, true
	key, err := cacheKey(in, c.target)
	if err != nil {
		return outcome{}, err
	}
	if o, ok := c.cached(key); ok {
		return o, nil
	}
	o, err := c.run(ctx, in)
	if err != nil {
		return o, err
	}
	c.store(key, o)
	return o, nil
}

func (c *compiler) run(ctx context.Context, in solc.Input) (outcome, error) {
	out, err := c.env.Engines.Solc().Compile(ctx, in)
	var ce *solc.CompileError
	switch {
	case errors.As(err, &ce):
		return outcome{Error: err.Error(), Formatted: firstError(ce), CompilerUsed: ce.Compiler}, nil
	case errors.Is(err, solc.ErrWorkerCrashed):
		return outcome{}, failure.New(failure.Compile, true, err)
	case err != nil:
		return outcome{}, failure.New(failure.Compile, ctx.Err() != nil, err)
	}
	o := outcome{CompilerUsed: out.CompilerUsed}
	target, err := out.Contract(c.target)
	if err != nil {
		o.Error = fmt.Sprintf("the sample defines no contract %s", c.target)
		o.Formatted = o.Error
		return o, nil
	}
	if o.Artifact, err = artifact.New(c.env.Data).Put(out); err != nil {
		return outcome{}, err
	}
	sum := sha256.Sum256([]byte(target.Creation))
	o.OK, o.CreationSHA = true, hex.EncodeToString(sum[:])
	return o, nil
}

func firstError(ce *solc.CompileError) string {
	for _, d := range ce.Diagnostics {
		if d.Severity == "error" {
			if d.Formatted != "" {
				return d.Formatted
			}
			return d.Type + ": " + d.Message
		}
	}
	return ce.Error()
}

// The outcome cache: compiling is a pure function of the input and the
// compiler, so its outcome is kept by the input's digest.
func cacheKey(in solc.Input, target string) (string, error) {
	b, err := json.Marshal(struct {
		In     solc.Input
		Target string
	}{in, target})
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

func (c *compiler) cachePath(key string) string {
	return filepath.Join(c.env.Data, "compile_cache", key[:2], key+".json")
}

func (c *compiler) cached(key string) (outcome, bool) {
	b, err := os.ReadFile(c.cachePath(key))
	if err != nil {
		return outcome{}, false
	}
	var o outcome
	if json.Unmarshal(b, &o) != nil {
		return outcome{}, false
	}
	if o.OK {
		if _, err := artifact.New(c.env.Data).Get(o.Artifact); err != nil {
			return outcome{}, false // the artifact is gone: compile again
		}
	}
	return o, true
}

func (c *compiler) store(key string, o outcome) {
	b, err := json.Marshal(o)
	if err != nil {
		return
	}
	p := c.cachePath(key)
	if os.MkdirAll(filepath.Dir(p), 0o755) == nil {
		regen.WriteSampleFile(filepath.Dir(p), filepath.Base(p), b) // a lost cache entry only costs a compile
	}
}
