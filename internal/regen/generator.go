package regen

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/solbehave/solbehave/internal/llm"
	"github.com/solbehave/solbehave/internal/mutate"
	"github.com/solbehave/solbehave/internal/skeleton"
	"github.com/solbehave/solbehave/internal/solast"
	"github.com/solbehave/solbehave/schemas"
)

// Generator kinds (the `generator` column).
const (
	KindOpenAI    = "openai"
	KindMutant    = "mutant"
	KindReference = "reference"
	KindImport    = "import"
)

// DefaultGenerators are what generate runs when --generator names none: the
// two controls.
var DefaultGenerators = []string{KindMutant, KindReference}

// Original is the source a skeleton was made from.
type Original struct {
	Files    map[string]string
	File     string                  // the file defining the target contract
	ASTs     map[string]*solast.Node // every file's AST, from the original's compile
	Compiler string                  // the compiler version used (for prompts and the unchecked operator)
}

// Task is one sample to generate.
type Task struct {
	ContractID string
	Sample     int
	Seed       int64 // the sample's seed (SampleSeed)
	Skeleton   *skeleton.Skeleton
	Original   *Original
}

// Result is a generated sample.
type Result struct {
	Target    string            // the sample's target file; "" when nothing could be produced
	Files     map[string]string // every file of the sample (Target under Skeleton.File), each regenerated body in its file
	Mutations []mutate.Mutation // mutants only: one per mutated function (empty, not nil, when none)
	Generated int               // bodies written
	Failed    int               // bodies that could not be generated (left as stubs)
	Calls     []schemas.LLMCall
	Transient int    // failed calls a later run may get right (timeouts, 429, 5xx, network)
	Err       string // why no sample could be produced at all
	// Failure classifies an Err that is a failed generation: FailureModel
	// (the model's reply held no usable body: the sample counts as not
	// compiling) or FailureEndpoint (the endpoint did not answer as the API,
	// after retries: the sample is left out of Compile@k and the unit fails).
	Failure string
}

// Failure classes of a generated sample (the generations.failure column).
const (
	FailureModel    = "model"
	FailureEndpoint = "endpoint"
)

// Generator regenerates samples.
type Generator interface {
	Name() string // the `model` column: the spec as given (import: its folder's base name)
	Kind() string
	// Digest covers everything besides the task that changes a sample of
	// contractID: part of the generate stage's fingerprints.
	Digest(contractID string) string
	Generate(ctx context.Context, t Task) *Result
}

// Config is what the generators are built from.
type Config struct {
	LLM          llm.Options // endpoint settings; Model comes from the spec
	Temperature  float64     // generation temperature (0.7)
	MaxTokens    int         // per function (2,048)
	MutationRate float64     // per-function mutation probability (mutate.DefaultRate)
}

// New builds the generator a spec names.
func New(spec string, cfg Config) (Generator, error) {
	kind, arg, _ := strings.Cut(strings.TrimSpace(spec), ":")
	switch kind {
	case KindReference:
		return reference{}, nil
	case KindMutant:
		rate := cfg.MutationRate
		if rate < 0 || rate > 1 {
			return nil, fmt.Errorf("mutation rate %v is not a probability", rate)
		}
		if arg != "" && arg != InterfaceVariant && arg != CompileErrorVariant {
			return nil, fmt.Errorf("unknown mutant variant %q (want mutant, mutant:%s or mutant:%s)", arg, InterfaceVariant, CompileErrorVariant)
		}
		return mutant{rate: rate, variant: arg}, nil
	case KindImport:
		return newImporter(arg)
	case KindOpenAI:
		return newOpenAI(arg, cfg)
	}
	return nil, fmt.Errorf("unknown generator %q (want openai:<model>, mutant, mutant:interface, mutant:compile-error, reference or import:<dir>)", spec)
}

// SampleSeed derives a sample's seed from the run seed; it fits in 31 bits,
// which every server accepts.
func SampleSeed(runSeed int64, contractID, model string, sample int) int64 {
	sum := sha256.Sum256([]byte(fmt.Sprintf("%d\x00%s\x00%s\x00%d", runSeed, contractID, model, sample)))
	return int64(binary.BigEndian.Uint64(sum[:8]) & 0x7fffffff)
}

// filled is a Result holding the skeleton filled with bodies and headers.
func filled(t Task, bodies, headers map[int]string) *Result {
	files := t.Skeleton.Fill(bodies, headers, "")
	return &Result{Target: files[t.Skeleton.File], Files: files}
}

// targetFunctions returns the AST functions of the skeleton's regenerated
// contracts (the target and its bases, in any file), indexed like the
// skeleton's functions (matched by file and position).
func targetFunctions(t Task) (map[int]solast.Function, error) {
	if t.Original == nil || t.Original.ASTs == nil {
		return nil, fmt.Errorf("no original AST for %s", t.ContractID)
	}
	type place struct {
		file  string
		start int
	}
	byPlace := map[place]solast.Function{}
	for file, root := range t.Original.ASTs {
		for _, c := range solast.Contracts(root) {
			for _, f := range solast.Functions(c.Node) {
				byPlace[place{file, f.Src.Start}] = f
			}
		}
	}
	out := map[int]solast.Function{}
	for _, f := range t.Skeleton.Functions {
		af, ok := byPlace[place{f.File, f.Orig.Start}]
		if !ok {
			return nil, fmt.Errorf("function %s of the skeleton is not in the original's AST (stale skeleton?)", f.Key)
		}
		out[f.Index] = af
	}
	return out, nil
}

// originalOf prepares the task's original files for cutting bodies out.
func originalOf(t Task) (*skeleton.Original, error) {
	if t.Original == nil {
		return nil, fmt.Errorf("no original source for %s", t.ContractID)
	}
	for _, file := range t.Skeleton.ChainFiles() {
		if _, ok := t.Original.Files[file]; !ok {
			return nil, fmt.Errorf("original has no file %s", file)
		}
	}
	return skeleton.NewOriginal(t.Original.Files), nil
}

// reference regenerates the original bodies.
type reference struct{}

func (reference) Name() string         { return KindReference }
func (reference) Kind() string         { return KindReference }
func (reference) Digest(string) string { return KindReference }
func (reference) Generate(_ context.Context, t Task) *Result {
	orig, err := originalOf(t)
	if err != nil {
		return &Result{Err: err.Error()}
	}
	bodies := map[int]string{}
	for _, i := range t.Skeleton.Holes() {
		bodies[i] = orig.Body(t.Skeleton.Functions[i])
	}
	r := filled(t, bodies, nil)
	r.Generated = len(bodies)
	return r
}

// GeneratorFlagUsage is the help of the shared --generator flag.
const GeneratorFlagUsage = "generators, comma-separated: openai:<model> (needs --llm-url), mutant, mutant:interface (also renames one public function), mutant:compile-error (also plants a type error: samples that do not compile), reference, import:<dir> " +
	"(default mutant,reference when no --llm-url is given)"
