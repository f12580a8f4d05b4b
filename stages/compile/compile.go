// Package compile is the compile stage (solbehave paper §IV-B, §V-A(b)):
// every generated sample is compiled with its original's compiler and
// settings; an LLM sample that does not compile gets one repair request to
// the same model (the sample, its first compiler error, the instruction to
// fix only that error, temperature 0.2) and is compiled again. Mutant,
// reference and imported samples are not repaired. A sample that compiles
// but changed the contract's interface (see interface.go) is recorded as
// not compiling, the reason in its error. A failed generation
// (generations.failure) is not compiled: a model failure is a sample that
// does not compile, raw or repaired, and is not repaired; an endpoint
// failure gets no row, so Compile@k leaves it out.
//
// Inputs: the `generations` dataset and the sample files, the corpus record
// (compiler settings). Outputs: the `samples` dataset (the contract with the
// oracles: they take rows with compiled_repaired and load their artifact),
// compiler outputs content-addressed under <data>/artifacts, repaired
// sources as <k>.repaired.sol beside the samples, and `llm_calls` rows for
// the repairs. One unit per contract and model; its fingerprint covers the
// samples' digests, the compiler settings and the repair configuration.
//
// Compiling is deterministic, so outcomes are cached by the digest of the
// compiler input under <data>/compile_cache: identical samples (an
// unmutated mutant and the reference, say) compile once.
package compile

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"github.com/spf13/pflag"

	"github.com/solbehave/solbehave/internal/config"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/etherscan"
	"github.com/solbehave/solbehave/internal/failure"
	"github.com/solbehave/solbehave/internal/llm"
	"github.com/solbehave/solbehave/internal/regen"
	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

// Stage is the compile stage.
type Stage struct {
	Repair            bool
	RepairTemperature float64
	RepairMaxTokens   int
	LLM               llm.Options

	pool     *llm.Pool // repair clients, one per model
	poolOnce sync.Once
}

// New returns the stage with the paper's parameters.
func New() *Stage { return &Stage{Repair: true, RepairTemperature: 0.2, RepairMaxTokens: 8192} }

func (s *Stage) Name() string    { return "compile" }
func (s *Stage) Version() string { return "2" } // 2: a sample that changed the interface does not compile
func (s *Stage) Summary() string {
	return "compile every sample with its original's compiler; one LLM repair pass for the ones that fail"
}

func (s *Stage) BindFlags(fs *pflag.FlagSet) {
	fs.BoolVar(&s.Repair, "repair", s.Repair, "give LLM samples that do not compile one repair request")
	config.Between(fs, &s.RepairTemperature, "repair-temperature", s.RepairTemperature, 0, 2, "temperature of the repair request")
	fs.IntVar(&s.RepairMaxTokens, "repair-max-tokens", s.RepairMaxTokens, "most output tokens of a repair (the whole target contract)")
	llm.BindFlags(fs, &s.LLM)
}

type unit struct {
	entry etherscan.Entry
	rec   *deploy.Record
	rows  []schemas.Generation
}

// Plan makes one unit per (contract, model) of the generations dataset.
func (s *Stage) Plan(ctx context.Context, env *pipeline.Env) ([]pipeline.Unit, error) {
	gens, err := warehouse.ReadDataset(env.Warehouse, schemas.Generations)
	if err != nil {
		return nil, err
	}
	groups := map[[2]string][]schemas.Generation{}
	for _, g := range gens {
		key := [2]string{g.ContractID, g.Model}
		groups[key] = append(groups[key], g)
	}
	corpus, err := deploy.OpenCorpus(env.Corpus)
	if err != nil {
		return nil, err
	}
	byID := map[string]etherscan.Entry{}
	for _, e := range corpus.Entries {
		byID[e.ID] = e
	}
	keys := make([][2]string, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		return keys[i][0] < keys[j][0] || keys[i][0] == keys[j][0] && keys[i][1] < keys[j][1]
	})
	var units []pipeline.Unit
	for _, k := range keys {
		e, ok := byID[k[0]]
		if !ok {
			continue // the contract left the corpus; generate drops its rows next run
		}
		rec, err := corpus.Load(e, 0)
		if err != nil || rec.Source == nil {
			continue
		}
		rows := groups[k]
		sort.Slice(rows, func(i, j int) bool { return rows[i].Sample < rows[j].Sample })
		fp := pipeline.Fingerprint(s.Version(), sampleDigests(rows), settings(rec), s.repairConfig(rows[0].Generator))
		units = append(units, pipeline.Unit{ID: k[0] + "/" + k[1], Contract: k[0], Model: k[1], Fingerprint: fp,
			Payload: unit{entry: e, rec: rec, rows: rows}, Files: []string{regen.SampleDir(k[0], k[1])},
			Affinity: rec.Source.CompilerVersion})
	}
	return units, nil
}

// sampleDigests is what of the generation rows decides the compile results.
func sampleDigests(rows []schemas.Generation) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = fmt.Sprintf("%d|%s|%s|%s|%s|%s|%s|%v", r.Sample, r.SourceSHA256, r.SkeletonSHA256, r.FilesPath, r.Error, r.Mutations, r.Failure, r.Ablation)
	}
	return out
}

func settings(rec *deploy.Record) []any {
	src := rec.Source
	return []any{src.CompilerVersion, src.OptimizationUsed, src.Runs, src.EVMVersion, src.SourceCode}
}

// Run compiles (and repairs) one contract's samples of one model.
func (s *Stage) Run(ctx context.Context, env *pipeline.Env, pu pipeline.Unit) (*pipeline.Output, error) {
	u := pu.Payload.(unit)
	c := &compiler{env: env, rec: u.rec, target: u.rec.Name()}
	var samples []schemas.Sample
	var calls []schemas.LLMCall
	transient := 0
	for _, g := range u.rows {
		if g.Failure == regen.FailureEndpoint {
			continue // the endpoint failed, not the model: out of Compile@k
		}
		sample, call, err := s.sample(ctx, c, g)
		if err != nil {
			return nil, err
		}
		samples = append(samples, sample)
		if call != nil {
			calls = append(calls, call.row)
			if call.transient {
				transient++
			}
		}
	}
	out := &pipeline.Output{}
	pipeline.Add(out, schemas.Samples, samples)
	if len(calls) > 0 {
		pipeline.Add(out, schemas.LLMCalls, calls)
	}
	if transient > 0 {
		return out, failure.New(failure.LLM, true, fmt.Errorf("%d repair request(s) failed transiently; the unit is retried on the next run", transient))
	}
	return out, nil
}
