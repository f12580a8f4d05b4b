// Package skeleton is the skeleton stage (solbehave paper §IV-B): for every
// kept contract it strips the original's comments, writes fresh NatSpec for
// the public and external functions it regenerates, deletes the body of
// every function of the target contract and, with --regenerate chain (the
// default), of every base it inherits from, in whichever file of the source
// it is defined (--regenerate counted: only the functions of the chain the
// size count counts), and checks that the result compiles once each body is
// stubbed. The NatSpec comes from a model when one is configured (--natspec-model, by default the first openai:<model>
// generator when --llm-url is set), otherwise from a deterministic template.
//
// Inputs: the kept rows of `contracts`, the original's compiler output
// (`reproducibility.artifact`) and the corpus record. Outputs: the
// `skeletons` dataset, `llm_calls` rows for the NatSpec request, and the
// files under <data>/skeletons/<contract_id>/ (skeleton.json, skeleton.sol,
// stubbed.sol). One unit per contract; its fingerprint covers the source,
// the original's artifact, the NatSpec model and the regeneration scope.
package skeleton

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sync"

	"github.com/spf13/pflag"

	"github.com/solbehave/solbehave/internal/artifact"
	"github.com/solbehave/solbehave/internal/atomicfile"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/etherscan"
	"github.com/solbehave/solbehave/internal/failure"
	"github.com/solbehave/solbehave/internal/llm"
	"github.com/solbehave/solbehave/internal/regen"
	"github.com/solbehave/solbehave/internal/sharedflag"
	"github.com/solbehave/solbehave/internal/skeleton"
	"github.com/solbehave/solbehave/internal/solc"
	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

// Stage is the skeleton stage.
type Stage struct {
	NatSpecModel string   // "auto", "" (template) or a model name
	Regenerate   string   // skeleton.ScopeChain or skeleton.ScopeTarget (shared with generate)
	SizeAblation bool     // also every compiling contract that was not kept, for Table VII only
	Generators   []string // the shared --generator list (auto picks its first openai:<model>)
	LLM          llm.Options

	clientOnce sync.Once
	client     *llm.Client
}

// New returns the stage with its defaults.
func New() *Stage { return &Stage{NatSpecModel: "auto", Regenerate: skeleton.ScopeChain} }

func (s *Stage) Name() string    { return "skeleton" }
func (s *Stage) Version() string { return "1" }
func (s *Stage) Summary() string {
	return "strip comments, write fresh NatSpec, delete the bodies of the target and its bases (in any file); check the stubbed skeleton compiles"
}

func (s *Stage) BindFlags(fs *pflag.FlagSet) {
	fs.StringVar(&s.NatSpecModel, "natspec-model", s.NatSpecModel,
		`model writing the skeletons' NatSpec: "auto" (the first openai:<model> generator when --llm-url is set), "" (template), or a model name`)
	sharedflag.StringList(fs, &s.Generators, "generator", nil, regen.GeneratorFlagUsage)
	fs.BoolVar(&s.SizeAblation, "size-ablation", s.SizeAblation,
		"also skeleton (and so generate and compile) every corpus contract that compiles but was not kept, as the size ablation of Table VII (rows marked ablation; no oracle reads them)")
	sharedflag.String(fs, &s.Regenerate, "regenerate", skeleton.ScopeChain, skeleton.RegenerateFlagUsage)
	llm.BindFlags(fs, &s.LLM)
}

// natspecModel is the model that writes NatSpec, "" for the template.
func (s *Stage) natspecModel() string {
	return regen.NatSpecModel(s.NatSpecModel, s.Generators, s.LLM.BaseURL != "")
}

type unit struct {
	entry    etherscan.Entry
	artifact string
	ablation bool // in the size ablation only (compiles, not kept)
}

// Plan makes one unit per kept contract that has an original artifact.
func (s *Stage) Plan(ctx context.Context, env *pipeline.Env) ([]pipeline.Unit, error) {
	if err := skeleton.CheckScope(s.Regenerate); err != nil {
		return nil, err
	}
	kept, err := keptContracts(env, s.SizeAblation)
	if err != nil {
		return nil, err
	}
	entries, err := etherscan.ListCorpus(env.Corpus)
	if err != nil {
		return nil, err
	}
	model := s.natspecModel()
	natspec := "template"
	if model != "" {
		natspec = "model " + model + " " + natspecPromptVersion
	}
	var units []pipeline.Unit
	for _, e := range entries {
		k, ok := kept[e.ID]
		if !ok {
			continue
		}
		fp := pipeline.Fingerprint(s.Version(), k.sourceSHA, k.artifact, natspec, skeletonFormat, "regenerate="+s.Regenerate, k.ablation)
		units = append(units, pipeline.Unit{ID: e.ID, Contract: e.ID, Fingerprint: fp, Payload: unit{entry: e, artifact: k.artifact, ablation: k.ablation},
			Affinity: k.compiler})
	}
	return units, nil
}

// skeletonFormat names the skeleton engine's output format: bump it when
// internal/skeleton changes what it writes.
const skeletonFormat = "skeleton-3"

type keptContract struct {
	sourceSHA, artifact string
	ablation            bool
	compiler            string // the original's, which compiles the skeleton too
}

// keptContracts maps each kept contract to its source digest and artifact;
// with ablation, also every contract whose original compiled (its size or
// history kept it out; §VI's size ablation needs only compilation).
func keptContracts(env *pipeline.Env, ablation bool) (map[string]keptContract, error) {
	contracts, err := warehouse.ReadDataset(env.Warehouse, schemas.Contracts)
	if err != nil {
		return nil, err
	}
	repro, err := warehouse.ReadDataset(env.Warehouse, schemas.Reproducibility)
	if err != nil {
		return nil, err
	}
	artifacts := map[string]string{}
	for _, r := range repro {
		artifacts[r.ContractID] = r.Artifact
	}
	out := map[string]keptContract{}
	for _, c := range contracts {
		if artifacts[c.ContractID] == "" || !c.Kept && !ablation {
			continue
		}
		if prev, seen := out[c.ContractID]; seen && !prev.ablation {
			continue // a kept row wins over another row of the same contract
		}
		out[c.ContractID] = keptContract{sourceSHA: c.SourceSHA256, artifact: artifacts[c.ContractID], ablation: !c.Kept, compiler: c.CompilerUsed}
	}
	return out, nil
}

// Run builds, writes and checks one contract's skeleton.
func (s *Stage) Run(ctx context.Context, env *pipeline.Env, pu pipeline.Unit) (*pipeline.Output, error) {
	u := pu.Payload.(unit)
	rec, orig, err := loadOriginal(env, u)
	if err != nil {
		return nil, err
	}
	in := orig.SkeletonInput(rec.Name(), s.Regenerate)
	sk, err := skeleton.Build(in, nil)
	if err != nil {
		return nil, failure.New(failure.Source, false, err)
	}
	out := &pipeline.Output{}
	model := s.natspecModel()
	var calls []schemas.LLMCall
	switch pub := publishedSkeleton(env.Data, pu.Contract, sk); {
	case model == "":
	case pub != nil:
		sk = pub // the release's NatSpec, as the published models saw it
	case s.LLM.BaseURL == "":
		return nil, failure.New(failure.Endpoint, true, fmt.Errorf("the skeletons' NatSpec model is %s%s and no --llm-url is set: "+
			"give the endpoint that serves it", regen.KindOpenAI+":", model))
	default:
		docs, call := s.modelDocs(ctx, env, pu.Contract, model, sk, orig.Compiler)
		calls = append(calls, call)
		if docs != nil {
			if sk, err = skeleton.Build(in, func(f skeleton.Function) *skeleton.Doc { return docs[f.Key] }); err != nil {
				return nil, failure.New(failure.Source, false, err)
			}
		}
	}
	stubErr, err := s.compileStubbed(ctx, env, rec, sk)
	if err != nil {
		return nil, err
	}
	relPath, sum, err := writeFiles(env.Data, pu.Contract, sk)
	if err != nil {
		return nil, err
	}
	pipeline.Add(out, schemas.Skeletons, rows(pu.Contract, sk, model, relPath, sum, stubErr, u.ablation))
	if len(calls) > 0 {
		pipeline.Add(out, schemas.LLMCalls, calls)
	}
	return out, nil
}

func loadOriginal(env *pipeline.Env, u unit) (*deploy.Record, *regen.Original, error) {
	rec, err := deploy.LoadRecord(env.Corpus, u.entry, 0)
	if err != nil {
		return nil, nil, failure.New(failure.Source, false, err)
	}
	built, err := artifact.New(env.Data).Get(u.artifact)
	if err != nil {
		return nil, nil, failure.New(failure.Artifact, false, err)
	}
	orig, _, err := regen.OriginalOf(rec, built)
	if err != nil {
		return nil, nil, failure.New(failure.Source, false, err)
	}
	return rec, orig, nil
}

// compileStubbed compiles the stubbed skeleton; a compiler error is the
// recorded reason (returned as text), any other failure fails the unit.
func (s *Stage) compileStubbed(ctx context.Context, env *pipeline.Env, rec *deploy.Record, sk *skeleton.Skeleton) (string, error) {
	in, err := regen.CompileInput(rec, sk.Stubbed())
	if err != nil {
		return "", failure.New(failure.Source, false, err)
	}
	in.NoASTs = true // only whether it compiles is read
	_, err = env.Engines.Solc().Compile(ctx, in)
	var ce *solc.CompileError
	switch {
	case err == nil:
		return "", nil
	case errors.As(err, &ce):
		return err.Error(), nil
	case errors.Is(err, solc.ErrWorkerCrashed):
		return "", failure.New(failure.Compile, true, err)
	}
	return "", failure.New(failure.Compile, false, err)
}

// writeFiles stores skeleton.json, skeleton.sol and stubbed.sol; it returns
// the JSON's path relative to the data root and its sha256.
func writeFiles(data, contractID string, sk *skeleton.Skeleton) (string, string, error) {
	b, err := json.MarshalIndent(sk, "", " ")
	if err != nil {
		return "", "", err
	}
	rel := path.Join("skeletons", warehouse.Sanitize(contractID))
	dir := filepath.Join(data, filepath.FromSlash(rel))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", "", err
	}
	for name, content := range map[string][]byte{"skeleton.json": b, "skeleton.sol": []byte(sk.Show(sk.Files)), "stubbed.sol": []byte(sk.Show(sk.Stubbed()))} {
		if err := atomicfile.WriteFile(filepath.Join(dir, name), content, 0o644); err != nil {
			return "", "", err
		}
	}
	sum := sha256.Sum256(b)
	return path.Join(rel, "skeleton.json"), hex.EncodeToString(sum[:]), nil
}

func rows(contractID string, sk *skeleton.Skeleton, model, relPath, sum, stubErr string, ablation bool) []schemas.Skeleton {
	natspecModel := ""
	if model != "" {
		natspecModel = regen.KindOpenAI + ":" + model
	}
	out := make([]schemas.Skeleton, 0, len(sk.Functions))
	for _, f := range sk.Functions {
		out = append(out, schemas.Skeleton{ContractID: contractID, Target: sk.Target, File: sk.File,
			FunctionIndex: int64(f.Index), Function: f.Key, DeclaredIn: f.Contract, DeclaredFile: f.File, Nontrivial: f.Nontrivial,
			Signature: f.Signature, Kind: f.Kind,
			Visibility: f.Visibility, StateMutability: f.StateMutability, HasBody: f.HasBody,
			NatSpecSource: f.NatSpecSource, Stub: f.Stub, NFunctions: int64(len(sk.Holes())),
			NNontrivial: int64(sk.Nontrivial()), Regenerate: sk.Scope, Ablation: ablation,
			NatSpecModel: natspecModel, SkeletonPath: relPath, SkeletonSHA256: sum,
			StubCompiled: stubErr == "", StubError: stubErr})
	}
	return out
}
