// Package generate is the generate stage (solbehave paper §IV-B): k
// samples (--samples, default 10) per kept contract and generator
// (--generator: openai:<model>, mutant, reference, import:<dir>; default
// mutant,reference when no --llm-url is given), each completed function by
// function from the contract's skeleton. Sample k's seed derives from the
// run seed, the contract, the model and k.
//
// Inputs: the `skeletons` dataset and the skeleton files, the original's
// artifact (`reproducibility.artifact`) and the corpus record. Outputs: the
// `generations` dataset, `llm_calls` rows, and the sample files under
// <data>/samples/<contract_id>/<model>/<k>.sol. One unit per contract and
// model; its fingerprint covers the skeleton's digest, the original's
// artifact, the generator's configuration (for imports, the imported files),
// k, the seed, the temperature and the token limit.
//
// A failed LLM call ends its sample, which never becomes a compiling stub.
// A reply with no usable body (garbage, empty choices) is the model's
// failure: the sample is recorded with its reason (`failure` = model) and
// counts as not compiling. A request the endpoint did not answer after the
// client's retries (timeout, 429, 5xx, refused, 401/403/404) is not: the
// sample (`failure` = endpoint) stays out of Compile@k and the unit fails
// with class endpoint (exit status 2), its rows kept; a transient failure is
// retried on the next run, which asks again only for what failed (the rest
// is cached).
package generate

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/spf13/pflag"

	"github.com/solbehave/solbehave/internal/artifact"
	"github.com/solbehave/solbehave/internal/atomicfile"
	"github.com/solbehave/solbehave/internal/config"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/etherscan"
	"github.com/solbehave/solbehave/internal/failure"
	"github.com/solbehave/solbehave/internal/llm"
	"github.com/solbehave/solbehave/internal/mutate"
	"github.com/solbehave/solbehave/internal/regen"
	"github.com/solbehave/solbehave/internal/sharedflag"
	"github.com/solbehave/solbehave/internal/skeleton"
	"github.com/solbehave/solbehave/internal/subjects"
	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

// Stage is the generate stage.
type Stage struct {
	Generators   []string
	Samples      int
	Temperature  float64
	MaxTokens    int
	MutationRate float64
	Regenerate   string // the skeletons' scope (shared --regenerate): a skeleton of another scope is stale
	LLM          llm.Options

	scope *pipeline.NameScope // what the last Plan covered (see InScope)
}

// New returns the stage with the paper's parameters.
func New() *Stage {
	return &Stage{Samples: 10, Temperature: 0.7, MaxTokens: 2048, MutationRate: mutate.DefaultRate, Regenerate: skeleton.ScopeChain}
}

func (s *Stage) Name() string    { return "generate" }
func (s *Stage) Version() string { return "1" }
func (s *Stage) Summary() string {
	return "regenerate k samples per contract and generator from the skeletons (LLM, mutant, reference, import)"
}

func (s *Stage) BindFlags(fs *pflag.FlagSet) {
	sharedflag.StringList(fs, &s.Generators, "generator", nil, regen.GeneratorFlagUsage)
	fs.IntVar(&s.Samples, "samples", s.Samples, "samples per contract and generator (k)")
	config.Between(fs, &s.Temperature, "temperature", s.Temperature, 0, 2, "LLM sampling temperature for generation")
	fs.IntVar(&s.MaxTokens, "max-tokens", s.MaxTokens, "most output tokens per generated function")
	config.Share(fs, &s.MutationRate, "mutation-rate", s.MutationRate, "mutant generator: probability that a function is mutated")
	sharedflag.String(fs, &s.Regenerate, "regenerate", skeleton.ScopeChain, skeleton.RegenerateFlagUsage)
	llm.BindFlags(fs, &s.LLM)
}

// generators builds the configured generators (the default when none is named).
func (s *Stage) generators(env *pipeline.Env) ([]regen.Generator, error) {
	specs := s.Generators
	if len(specs) == 0 {
		if s.LLM.BaseURL != "" {
			return nil, errors.New("--llm-url is set but --generator names no openai:<model>")
		}
		specs = regen.DefaultGenerators
	}
	if s.Samples < 1 {
		return nil, fmt.Errorf("--samples %d: want at least 1", s.Samples)
	}
	cfg := regen.Config{LLM: s.LLM.WithCache(env.Data), Temperature: s.Temperature, MaxTokens: s.MaxTokens, MutationRate: s.MutationRate}
	seen := map[string]string{} // sample folder -> generator
	var out []regen.Generator
	for _, spec := range specs {
		g, err := regen.New(spec, cfg)
		if err != nil {
			return nil, err
		}
		// Names that differ only in characters the folder names replace
		// (`a+b`, `a_b`) would write one folder: refused as a repeat is.
		dir := path.Base(regen.SampleDir("c", g.Name()))
		if other, ok := seen[dir]; ok {
			if other == g.Name() {
				return nil, fmt.Errorf("generator %s named twice", g.Name())
			}
			return nil, fmt.Errorf("generators %s and %s would share the sample folder %s; rename one", other, g.Name(), dir)
		}
		seen[dir] = g.Name()
		out = append(out, g)
	}
	return out, nil
}

// ModelNames are the generators' models (pipeline.ModelNamer), claimed in
// data before any stage of the run writes. Settings the generators refuse
// name none here: the stage reports them when it plans, as before.
func (s *Stage) ModelNames(data string) []string {
	gens, err := s.generators(&pipeline.Env{Data: data})
	if err != nil {
		return nil
	}
	names := make([]string, len(gens))
	for i, g := range gens {
		names[i] = g.Name()
	}
	return names
}

// removeKilledWrites removes the temporary files (`.0.sol.tmp-*`) a run
// killed mid-write (SIGKILL between create and rename) left in the unit's
// sample folder: no reader lists them, and nothing else would. The unit
// owns the folder, so no other write is in progress there.
func removeKilledWrites(dir string) {
	left, _ := filepath.Glob(filepath.Join(dir, atomicfile.TempPattern("*")))
	for _, f := range left {
		os.Remove(f)
	}
}

type unit struct {
	entry    etherscan.Entry
	gen      regen.Generator
	skel     schemas.Skeleton // one row: path, digest, target
	artifact string
}

// InScope: a run evaluates the generators it names and leaves every other
// generator's samples as they are (an evaluation grows model by model); a
// unit whose contract has no skeleton any more lost its input, whichever
// generator made it.
func (s *Stage) InScope(unitID string) bool { return s.scope.Covers(unitID) }

// Plan makes one unit per (kept contract with a skeleton, generator).
func (s *Stage) Plan(ctx context.Context, env *pipeline.Env) ([]pipeline.Unit, error) {
	if err := skeleton.CheckScope(s.Regenerate); err != nil {
		return nil, err
	}
	gens, err := s.generators(env)
	if err != nil {
		return nil, err
	}
	skels, err := skeletonRows(env)
	if err != nil {
		return nil, err
	}
	orig, corpus, err := subjects.Open(env.Warehouse, env.Corpus)
	if err != nil {
		return nil, err
	}
	s.scope = pipeline.NewNameScope()
	for _, g := range gens {
		s.scope.Names[g.Name()] = true
	}
	var units []pipeline.Unit
	for _, e := range corpus.Entries {
		sk, ok := skels[e.ID]
		if !ok {
			continue
		}
		s.scope.Contracts[e.ID] = true
		for _, g := range gens {
			fp := pipeline.Fingerprint(s.Version(), sk.SkeletonSHA256, orig.Artifacts[e.ID], g.Digest(e.ID), s.Samples, env.Seed, "regenerate="+s.Regenerate, sk.Ablation)
			units = append(units, pipeline.Unit{ID: e.ID + "/" + g.Name(), Contract: e.ID, Model: g.Name(), Fingerprint: fp,
				Payload: unit{entry: e, gen: g, skel: sk, artifact: orig.Artifacts[e.ID]}, Files: []string{regen.SampleDir(e.ID, g.Name())}})
		}
	}
	return units, nil
}

func skeletonRows(env *pipeline.Env) (map[string]schemas.Skeleton, error) {
	rows, err := warehouse.ReadDataset(env.Warehouse, schemas.Skeletons)
	if err != nil {
		return nil, err
	}
	out := map[string]schemas.Skeleton{}
	for _, r := range rows {
		out[r.ContractID] = r
	}
	return out, nil
}

// Run generates the k samples of one contract and model.
func (s *Stage) Run(ctx context.Context, env *pipeline.Env, pu pipeline.Unit) (*pipeline.Output, error) {
	u := pu.Payload.(unit)
	sk, err := loadSkeleton(env.Data, u.skel)
	if err != nil {
		return nil, err
	}
	if scope := cmp.Or(sk.Scope, skeleton.ScopeTarget); scope != s.Regenerate {
		return nil, failure.New(failure.Skeleton, false, fmt.Errorf("the skeleton regenerates %q but --regenerate is %q: run the skeleton stage with --regenerate %s", scope, s.Regenerate, s.Regenerate))
	}
	orig, err := loadOriginal(env, u)
	if err != nil {
		return nil, err
	}
	results := s.generateAll(ctx, env, u, sk, orig)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	removeKilledWrites(filepath.Join(env.Data, regen.SampleDir(pu.Contract, u.gen.Name())))
	rows := make([]schemas.Generation, 0, len(results))
	var calls []schemas.LLMCall
	transient, endpoint := 0, 0
	firstEndpoint := ""
	for k, r := range results {
		row, err := writeSample(env.Data, pu.Contract, u, k, r)
		if err != nil {
			return nil, err
		}
		rows = append(rows, row)
		calls = append(calls, r.res.Calls...)
		transient += r.res.Transient
		if r.res.Failure == regen.FailureEndpoint {
			endpoint++
			firstEndpoint = cmp.Or(firstEndpoint, r.res.Err)
		}
	}
	removeStale(env.Data, pu.Contract, u.gen.Name(), s.Samples)
	out := &pipeline.Output{}
	pipeline.Add(out, schemas.Generations, rows)
	if len(calls) > 0 {
		pipeline.Add(out, schemas.LLMCalls, calls)
	}
	if endpoint > 0 {
		// not the model's failure: the samples stay out of Compile@k, the
		// unit fails (exit status 2); a transient one is retried next run,
		// the rest of the unit's calls coming from the cache
		return out, failure.New(failure.Endpoint, transient > 0,
			fmt.Errorf("%d of %d samples failed at the LLM endpoint (first: %s)", endpoint, len(results), firstEndpoint))
	}
	return out, nil
}

type result struct {
	res  *regen.Result
	seed int64
	ms   int64
}

// generateAll runs the samples, several at once for LLM generators.
func (s *Stage) generateAll(ctx context.Context, env *pipeline.Env, u unit, sk *skeleton.Skeleton, orig *regen.Original) []result {
	results := make([]result, s.Samples)
	parallel := 1
	if u.gen.Kind() == regen.KindOpenAI {
		parallel = max(1, s.LLM.Concurrency)
	}
	var g errgroup.Group
	g.SetLimit(parallel)
	for k := 0; k < s.Samples; k++ {
		g.Go(func() error {
			seed := regen.SampleSeed(env.Seed, u.entry.ID, u.gen.Name(), k)
			start := time.Now()
			res := u.gen.Generate(ctx, regen.Task{ContractID: u.entry.ID, Sample: k, Seed: seed, Skeleton: sk, Original: orig})
			results[k] = result{res: res, seed: seed, ms: time.Since(start).Milliseconds()}
			return nil
		})
	}
	g.Wait()
	return results
}

func loadSkeleton(data string, row schemas.Skeleton) (*skeleton.Skeleton, error) {
	b, err := os.ReadFile(filepath.Join(data, filepath.FromSlash(row.SkeletonPath)))
	if err != nil {
		return nil, failure.New(failure.Skeleton, true, err)
	}
	if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != row.SkeletonSHA256 {
		return nil, failure.New(failure.Skeleton, true, fmt.Errorf("%s changed since the skeleton stage wrote it; rerun skeleton", row.SkeletonPath))
	}
	sk, err := skeleton.Decode(b)
	if err != nil {
		return nil, failure.New(failure.Skeleton, false, err)
	}
	return sk, nil
}

func loadOriginal(env *pipeline.Env, u unit) (*regen.Original, error) {
	rec, err := deploy.LoadRecord(env.Corpus, u.entry, 0)
	if err != nil {
		return nil, failure.New(failure.Source, false, err)
	}
	built, err := artifact.New(env.Data).Get(u.artifact)
	if err != nil {
		return nil, failure.New(failure.Artifact, false, err)
	}
	orig, _, err := regen.OriginalOf(rec, built)
	if err != nil {
		return nil, failure.New(failure.Source, false, err)
	}
	return orig, nil
}

// writeSample stores sample k's files and returns its row.
func writeSample(data, contractID string, u unit, k int, r result) (schemas.Generation, error) {
	g := u.gen
	row := schemas.Generation{ContractID: contractID, Model: g.Name(), Sample: int64(k), Generator: g.Kind(),
		Seed: r.seed, SkeletonSHA256: u.skel.SkeletonSHA256, FunctionsGenerated: int64(r.res.Generated),
		FunctionsFailed: int64(r.res.Failed), Error: r.res.Err, Failure: r.res.Failure, Ablation: u.skel.Ablation, GenerationMS: r.ms, LLMCalls: int64(len(r.res.Calls))}
	row.TokensIn, row.TokensOut = llm.SumTokens(r.res.Calls)
	if g.Kind() == regen.KindMutant {
		row.Mutations, row.NMutated = mutationsJSON(r.res.Mutations), int64(len(r.res.Mutations))
	}
	if r.res.Target == "" {
		return row, nil
	}
	row.SourcePath = regen.SamplePath(contractID, g.Name(), k)
	if err := regen.WriteSampleFile(data, row.SourcePath, []byte(r.res.Target)); err != nil {
		return row, err
	}
	sum := sha256.Sum256([]byte(r.res.Target))
	row.SourceSHA256 = hex.EncodeToString(sum[:])
	if len(r.res.Files) > 1 {
		row.FilesPath = path.Join(regen.SampleDir(contractID, g.Name()), strconv.Itoa(k)+".files.json")
		b, err := json.Marshal(r.res.Files)
		if err != nil {
			return row, err
		}
		if err := regen.WriteSampleFile(data, row.FilesPath, b); err != nil {
			return row, err
		}
	}
	return row, nil
}

// mutationsJSON is the samples.mutations text: a JSON list, `->` left readable.
func mutationsJSON(ms []mutate.Mutation) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(ms); err != nil {
		return "[]"
	}
	return strings.TrimSpace(b.String())
}

// removeStale deletes the files of samples beyond k (a lowered --samples).
func removeStale(data, contractID, model string, k int) {
	dir := filepath.Join(data, filepath.FromSlash(regen.SampleDir(contractID, model)))
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		idx, _, _ := strings.Cut(e.Name(), ".")
		if n, err := strconv.Atoi(idx); err == nil && n >= k {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}
