// Package regentest builds, for the tests of the skeleton, generate and
// compile stages, the inputs each stage reads from its predecessors (stages
// never import each other, so their tests cannot run one another): kept
// contracts with their original's artifact, as verify writes them; a
// skeleton, as the skeleton stage writes it; generated samples, as the
// generate stage writes them; and, for the oracles' tests, compiling
// samples of the multi-file fixture made through its chain skeleton. Everything is real: recorded corpus
// contracts, the real compiler, the real engines.
package regentest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os/exec"
	"path"
	"strings"
	"testing"
	"time"

	"github.com/solbehave/solbehave/internal/artifact"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/etherscan"
	"github.com/solbehave/solbehave/internal/regen"
	"github.com/solbehave/solbehave/internal/skeleton"
	"github.com/solbehave/solbehave/internal/stagetest"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

// Env is a run environment over corpus with a fresh data folder.
func Env(t *testing.T, corpus string) *pipeline.Env {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed: solc cannot run")
	}
	return stagetest.IsolatedEnv(t, corpus)
}

// MultiFileEnv is Env over a corpus holding stagetest's multi-file
// fixture: CapToken, whose bases live in other files of its standard-JSON
// source.
func MultiFileEnv(t *testing.T) *pipeline.Env {
	t.Helper()
	env := Env(t, t.TempDir())
	stagetest.WriteMultiFileCorpus(t, env.Engines.Solc(), env.Corpus)
	return env
}

// Original is a kept contract's record and compiled original.
type Original struct {
	ID       string
	Record   *deploy.Record
	Artifact string
	Orig     *regen.Original
	Target   string
}

// Keep compiles the named contracts (by contract name) and writes their
// `contracts` (kept) and `reproducibility` (artifact) rows.
func Keep(t *testing.T, env *pipeline.Env, names ...string) []Original {
	t.Helper()
	c, err := deploy.OpenCorpus(env.Corpus)
	if err != nil {
		t.Fatal(err)
	}
	var out []Original
	for _, name := range names {
		for _, e := range c.Entries {
			if e.Name == name {
				out = append(out, keep(t, env, c, e))
			}
		}
	}
	if len(out) != len(names) {
		t.Fatalf("found %d of the contracts %v in %s", len(out), names, env.Corpus)
	}
	return out
}

func keep(t *testing.T, env *pipeline.Env, c *deploy.Corpus, e etherscan.Entry) Original {
	rec, err := c.Load(e, 0)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	built, err := env.Engines.Solc().Compile(ctx, rec.CompileInput(nil))
	if err != nil {
		t.Fatalf("%s: %v", e.ID, err)
	}
	id, err := artifact.New(env.Data).Put(built)
	if err != nil {
		t.Fatal(err)
	}
	orig, target, err := regen.OriginalOf(rec, built)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(rec.Source.SourceCode))
	stagetest.Write(t, env, schemas.Contracts, e.ID, "verify", []schemas.Contract{{ContractID: e.ID, Name: e.Name,
		Kept: true, SourceSHA256: hex.EncodeToString(sum[:]), NNontrivialFunctions: 3}})
	stagetest.Write(t, env, schemas.Reproducibility, e.ID, "verify", []schemas.ReproducibilityRow{{ContractID: e.ID, Name: e.Name,
		Kept: true, Artifact: id, CompilerUsed: built.CompilerUsed}})
	return Original{ID: e.ID, Record: rec, Artifact: id, Orig: orig, Target: target}
}

// Skeleton builds o's template skeleton and writes it as the skeleton stage
// does (skeleton.json and the `skeletons` rows).
func Skeleton(t *testing.T, env *pipeline.Env, o Original) *skeleton.Skeleton {
	t.Helper()
	sk, err := skeleton.Build(o.Orig.SkeletonInput(o.Target, ""), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(sk)
	rel := path.Join("skeletons", o.ID, "skeleton.json")
	writeFile(t, env.Data, rel, b)
	sum := sha256.Sum256(b)
	var rows []schemas.Skeleton
	for _, f := range sk.Functions {
		rows = append(rows, schemas.Skeleton{ContractID: o.ID, Target: sk.Target, File: sk.File, DeclaredFile: f.File, FunctionIndex: int64(f.Index),
			Function: f.Key, DeclaredIn: f.Contract, Nontrivial: f.Nontrivial, HasBody: f.HasBody, Regenerate: sk.Scope,
			NFunctions: int64(len(sk.Holes())), NNontrivial: int64(sk.Nontrivial()), SkeletonPath: rel, SkeletonSHA256: hex.EncodeToString(sum[:]), StubCompiled: true})
	}
	stagetest.Write(t, env, schemas.Skeletons, o.ID, "skeleton", rows)
	return sk
}

// Generate writes k samples of g as the generate stage does (files and the
// `generations` rows); edit, when set, rewrites each file of sample k.
func Generate(t *testing.T, env *pipeline.Env, o Original, sk *skeleton.Skeleton, g regen.Generator, k int, edit func(k int, file, src string) string) {
	t.Helper()
	var rows []schemas.Generation
	for i := 0; i < k; i++ {
		seed := regen.SampleSeed(env.Seed, o.ID, g.Name(), i)
		res := g.Generate(context.Background(), regen.Task{ContractID: o.ID, Sample: i, Seed: seed, Skeleton: sk, Original: o.Orig})
		if res.Err != "" {
			t.Fatalf("%s sample %d: %s", g.Name(), i, res.Err)
		}
		if edit != nil {
			for name, text := range res.Files {
				res.Files[name] = edit(i, name, text)
			}
		}
		text := res.Files[sk.File]
		rel := regen.SamplePath(o.ID, g.Name(), i)
		writeFile(t, env.Data, rel, []byte(text))
		sum := sha256.Sum256([]byte(text))
		row := schemas.Generation{ContractID: o.ID, Model: g.Name(), Sample: int64(i), Generator: g.Kind(), Seed: seed,
			SourcePath: rel, SourceSHA256: hex.EncodeToString(sum[:]), FunctionsGenerated: int64(res.Generated), GenerationMS: 5}
		if len(res.Files) > 1 {
			b, _ := json.Marshal(res.Files)
			row.FilesPath = strings.TrimSuffix(rel, ".sol") + ".files.json"
			writeFile(t, env.Data, row.FilesPath, b)
		}
		if g.Kind() == regen.KindMutant {
			b, _ := json.Marshal(res.Mutations)
			row.Mutations, row.NMutated = string(b), int64(len(res.Mutations))
		}
		rows = append(rows, row)
	}
	name := "generate-" + strings.NewReplacer(":", "_", "/", "__").Replace(g.Name())
	stagetest.Write(t, env, schemas.Generations, o.ID, name, rows)
}

func writeFile(t testing.TB, data, rel string, b []byte) {
	t.Helper()
	if err := regen.WriteSampleFile(data, rel, b); err != nil {
		t.Fatal(err)
	}
}
