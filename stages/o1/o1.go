// Package o1 is the differential fuzzing oracle of solbehave paper §IV-C:
// for every compiling sample of a kept contract and every fuzzable function
// f of the original (state-changing, every argument of a primitive ABI type:
// see fuzz.Primitive), the original C* and the sample Ĉ are deployed from
// source as the oracles deploy them (internal/deploy: same deployer,
// constructor arguments and address), and internal/fuzz calls f on both
// from the deployer with the same arguments, value and block, coverage
// guided, until they disagree on status or return data (a counterexample,
// shrunk and stored) or the budget runs out (equivalent).
//
// Budget (flags): --o1-calls 10,000 calls per function, state reset to the
// fresh deployment every --o1-seq-len 20 calls, and --o1-gas-budget (10G
// gas over both deployments, the deterministic stand-in for the paper's
// 120 s: fuzz.DefaultGasBudget) whichever ends first, so a verdict depends
// on the inputs and the seed only. --o1-timeout (10 min per function)
// guards the machine: a campaign past it fails the unit as a retriable
// timeout, never ends as a verdict. A
// disagreement counts only when its shrunk sequence, replayed from the fresh
// deployments, disagrees again; otherwise fuzzing goes on. The campaign of
// f runs with the run's seed mixed with f's signature, so every sample of
// every model meets the same input stream for f until their coverage
// differs. The dictionary is mined from both
// deployments: PUSH operands of both creation and runtime codes, literals
// of both sources, the constructor arguments and the values the
// constructors stored, and the known actors (deployer, contract, libraries,
// coinbase, the first senders of the recorded history).
//
// A sample whose deployment is the original's but for the metadata tails
// (see sameBehaviour: the same creation, state and code, nothing that reads
// code as data) is equivalent on every function without a call (stop
// reason `same_code`): fuzzing it could find nothing, and its budget is
// the largest O1 spends (every call of every function).
//
// One unit per contract and model: the original is deployed once and every
// compiling sample of that model is fuzzed against it. A sample that
// compiled but cannot be deployed counts as non-equivalent on every
// fuzzable function (stop reason `undeployed`), as O2 counts it divergent.
// Inputs: `contracts` (kept), `reproducibility.artifact`, `samples`
// (compiled_repaired, with an artifact) and the corpus record. Outputs:
// `fuzz_results`, `fuzz_counterexamples`.
package o1

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/spf13/pflag"

	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/fuzz"
	"github.com/solbehave/solbehave/internal/regen"
	"github.com/solbehave/solbehave/internal/replay"
	"github.com/solbehave/solbehave/internal/subjects"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

// historyActors bounds how many distinct senders of the recorded history
// join the dictionary's addresses.
const historyActors = 16

// historyLimit is how many recorded transactions are read for their senders.
const historyLimit = 200

// Stage is the o1 stage.
type Stage struct {
	Calls     int           // call pairs per function
	SeqLen    int           // calls between resets to the fresh deployments
	Timeout   time.Duration // wall clock per function: past it the unit fails (not fingerprinted)
	Gas       uint64        // gas limit of every fuzzed call
	GasBudget uint64        // gas of every call of a campaign, both deployments
}

// budget is what of the stage's settings a verdict depends on.
type budget struct {
	Calls, SeqLen  int
	Gas, GasBudget uint64
}

// New returns the stage with the paper's budget.
func New() *Stage {
	return &Stage{Calls: fuzz.DefaultCalls, SeqLen: fuzz.DefaultSeqLen, Timeout: fuzz.DefaultTimeout, Gas: fuzz.DefaultGas,
		GasBudget: fuzz.DefaultGasBudget}
}

func (s *Stage) Name() string    { return "o1" }
func (s *Stage) Version() string { return "5" } // 2: calls have an 8M gas limit; 3: no verdict from a clock, counterexamples replayed; 4: same code not fuzzed; 5: a missing function is non-equivalent
func (s *Stage) Summary() string {
	return "O1: fuzz every fuzzable function of the original and each compiling sample side by side, coverage guided"
}

func (s *Stage) BindFlags(fs *pflag.FlagSet) {
	fs.IntVar(&s.Calls, "o1-calls", s.Calls, "O1: fuzzed calls per function and sample")
	fs.IntVar(&s.SeqLen, "o1-seq-len", s.SeqLen, "O1: calls between resets to the fresh deployments")
	fs.DurationVar(&s.Timeout, "o1-timeout", s.Timeout, "O1: wall-clock limit per function and sample; past it the unit fails as a timeout (retried), never a verdict")
	fs.Uint64Var(&s.Gas, "o1-gas", s.Gas, "O1: gas limit of every fuzzed call (Echidna's testMaxGas)")
	fs.Uint64Var(&s.GasBudget, "o1-gas-budget", s.GasBudget, "O1: gas the calls of one function's campaign may burn on both deployments (the paper's 120 s, made deterministic)")
}

// unit is what Plan hands to Run: one contract, one model's samples.
type unit struct {
	rec          *deploy.Record
	loadErr      error
	origArtifact string
	model        string
	samples      []schemas.Sample
}

// sampleKey is what a unit's output depends on per sample.
type sampleKey struct {
	Sample   int64
	Artifact string
	Source   string
}

// Plan makes one unit per kept contract and model with a compiling sample.
func (s *Stage) Plan(ctx context.Context, env *pipeline.Env) ([]pipeline.Unit, error) {
	if s.Calls <= 0 || s.SeqLen <= 0 || s.Timeout <= 0 || s.GasBudget == 0 {
		return nil, fmt.Errorf("o1: --o1-calls, --o1-seq-len, --o1-timeout and --o1-gas-budget must be positive (got %d, %d, %s, %d)",
			s.Calls, s.SeqLen, s.Timeout, s.GasBudget)
	}
	kept, samples, err := subjects.KeptCompared(env.Warehouse, env.Corpus, historyLimit, nil)
	if err != nil {
		return nil, err
	}
	var units []pipeline.Unit
	for _, sub := range kept {
		id, byModel := sub.Entry.ID, subjects.ByModel(samples[sub.Entry.ID])
		for _, model := range slices.Sorted(maps.Keys(byModel)) {
			u := unit{rec: sub.Record, loadErr: sub.LoadErr, origArtifact: sub.Artifact, model: model, samples: byModel[model]}
			fp := pipeline.Fingerprint(s.Version(), budget{s.Calls, s.SeqLen, s.Gas, s.GasBudget}, env.Seed, sub.Digest, u.origArtifact, model,
				sampleKeys(u.samples), pipeline.ErrText(sub.LoadErr))
			units = append(units, pipeline.Unit{ID: id + "/" + model, Contract: id, Model: model, Fingerprint: fp, Payload: u})
		}
	}
	return units, nil
}

func sampleKeys(samples []schemas.Sample) []sampleKey {
	keys := make([]sampleKey, len(samples))
	for i, s := range samples {
		keys[i] = sampleKey{Sample: s.Sample, Artifact: s.Artifact, Source: s.SourceSHA256}
	}
	return keys
}

// Run fuzzes one model's samples of one contract against the original.
func (s *Stage) Run(ctx context.Context, env *pipeline.Env, pu pipeline.Unit) (*pipeline.Output, error) {
	u := pu.Payload.(unit)
	orig, deployed, err := subjects.DeployUnit(env.Data, u.rec, u.loadErr, u.origArtifact, u.samples)
	if err != nil {
		return nil, err
	}
	methods := fuzz.FuzzableMethods(orig.ABI)
	var results []schemas.FuzzResult
	var cxs []schemas.FuzzCounterexample
	for i, smp := range u.samples {
		r, c, err := s.fuzzSample(ctx, env, u, orig, methods, smp, deployed[i])
		if err != nil {
			return nil, err
		}
		results, cxs = append(results, r...), append(cxs, c...)
	}
	out := &pipeline.Output{}
	if len(results) > 0 {
		pipeline.Add(out, schemas.FuzzResults, results)
	}
	if len(cxs) > 0 {
		pipeline.Add(out, schemas.FuzzCounterexamples, cxs)
	}
	return out, nil
}

// fuzzSample fuzzes every fuzzable function on one deployed sample.
func (s *Stage) fuzzSample(ctx context.Context, env *pipeline.Env, u unit, orig *deploy.Deployment,
	methods []abi.Method, smp schemas.Sample, dep replay.Sample) ([]schemas.FuzzResult, []schemas.FuzzCounterexample, error) {
	row := labels{contract: orig, model: smp.Model, sample: smp.Sample, contractID: u.rec.Entry.ID}
	sd := dep.Deployment
	if sd == nil {
		return undeployedRows(row, methods, env.Seed, errors.New(dep.DeployErr)), nil, nil
	}
	if sameBehaviour(orig, sd) {
		return sameCodeRows(row, methods, env.Seed), nil, nil
	}
	dict := fuzz.NewDictionaryFrom(seeds(u.rec, orig, sd, sampleSources(env.Data, smp)))
	var results []schemas.FuzzResult
	var cxs []schemas.FuzzCounterexample
	for _, m := range methods {
		if fuzz.Missing(sd.ABI, m) {
			results = append(results, missingRow(row, m, env.Seed))
			continue
		}
		cfg := fuzz.Config{Calls: s.Calls, SeqLen: s.SeqLen, Timeout: s.Timeout, Gas: s.Gas, GasBudget: s.GasBudget,
			Seed: seedFor(env.Seed, m.Sig), Sender: orig.Deployer, Block: orig.Block, Dictionary: dict}
		rep, err := fuzz.Differential(ctx, target(orig), target(sd), m, cfg)
		if err != nil {
			return nil, nil, fmt.Errorf("o1: %s sample %d: %w", smp.Model, smp.Sample, err)
		}
		if rep.Unconfirmed > 0 {
			env.Log.Warn("o1: disagreements that a replay did not reproduce (fuzzing went on)", "contract", u.rec.Entry.ID,
				"model", smp.Model, "sample", smp.Sample, "function", m.Sig, "count", rep.Unconfirmed)
		}
		results = append(results, resultRow(row, m, cfg.Seed, rep))
		cxs = append(cxs, counterexampleRows(row, m, rep)...)
	}
	return results, cxs, nil
}

func target(d *deploy.Deployment) fuzz.Target {
	return fuzz.Target{Chain: d.Chain, Address: d.Address}
}

// seedFor mixes the run's seed with a function's signature.
func seedFor(seed int64, signature string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(signature))
	return uint64(seed) ^ h.Sum64()
}

// sampleSources reads a sample's source files for their literals: every
// file of a multi-file sample (files_path: its regenerated bases' bodies
// live in their own files), else its target file; none when absent (the
// bytecode operands still cover its constants).
func sampleSources(data string, smp schemas.Sample) []string {
	if smp.FilesPath != "" {
		if files, err := regen.ReadSampleFiles(data, smp.FilesPath); err == nil {
			return inNameOrder(files)
		}
	}
	if smp.SourcePath == "" {
		return nil
	}
	b, err := os.ReadFile(filepath.Join(data, filepath.FromSlash(smp.SourcePath)))
	if err != nil {
		return nil
	}
	return []string{string(b)}
}
