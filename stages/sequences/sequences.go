// Package sequences is the validated sequence generation stage of solbehave
// paper §IV-E2 (Algorithm 1, internal/sequence): for every kept contract and
// every extractor whose DCR graph the dcr stage wrote, it deploys the
// original from its stored compiler output and drives the graph against it,
// collecting --o3-budget calls the original accepts, one sequence at a time
// from a fresh deployment. Every call tried, kept or not, is a row of
// `sequence_calls`: the kept ones are the sequences O3 replays, the others,
// at their place, the negative probes O4 replays (stage o3).
//
// One unit per (contract, extractor). Inputs: `contracts` (kept),
// `reproducibility.artifact` (the original's compiler output), `dcr_graphs`
// (status ok; the graph file under <data>/dcr/) and the corpus record
// (deployment, senders, pace and fallback arguments from its first
// --o3-history transactions). Each unit's seed derives from --seed, the
// contract and the extractor, so runs, job counts and shards agree.
package sequences

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"sort"

	"github.com/spf13/pflag"

	"github.com/solbehave/solbehave/internal/artifact"
	"github.com/solbehave/solbehave/internal/dcr"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/etherscan"
	"github.com/solbehave/solbehave/internal/sequence"
	"github.com/solbehave/solbehave/internal/sharedflag"
	"github.com/solbehave/solbehave/internal/subjects"
	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

// Stage is the sequences stage.
type Stage struct {
	Config  sequence.Config // Seed is set per unit from --seed
	History int             // recorded transactions read
}

// New returns the stage with the paper's parameters (T = 1,000, α = 0.8,
// β = 0.7) and the argument fallback on.
func New() *Stage { return &Stage{Config: sequence.DefaultConfig(), History: 1000} }

func (s *Stage) Name() string { return "sequences" }

// Version: bump when the sequences for the same input change.
func (s *Stage) Version() string { return "1" }
func (s *Stage) Summary() string {
	return "Algorithm 1: build validated call sequences from each DCR graph on the original (kept and pruned calls)"
}

func (s *Stage) BindFlags(fs *pflag.FlagSet) {
	c := &s.Config
	fs.IntVar(&c.Budget, "o3-budget", c.Budget, "O3: successful calls Algorithm 1 collects per contract and extractor (T)")
	fs.IntVar(&c.MaxAttempts, "o3-max-attempts", c.MaxAttempts, "O3: most calls tried per contract and extractor, fallbacks included (0: 2 x --o3-budget)")
	fs.Float64Var(&c.Alpha, "o3-alpha", c.Alpha, "O3: probability of choosing a prerequisite")
	fs.Float64Var(&c.Beta, "o3-beta", c.Beta, "O3: probability of choosing an obligation")
	fs.Float64Var(&c.Bonus, "o3-bonus", c.Bonus, "O3: UCB exploration weight c (success rate + c*sqrt(ln N / n))")
	fs.IntVar(&c.Users, "o3-users", c.Users, "O3: user accounts `any` events are sent from (the history's most frequent senders first)")
	fs.BoolVar(&c.Fallback, "o3-fallback", c.Fallback, "O3: when the proposed arguments revert, try recorded ones, then generated ones")
	fs.IntVar(&c.HistoryTries, "o3-history-tries", c.HistoryTries, "O3: recorded argument tuples tried per discarded step")
	fs.IntVar(&c.SearchTries, "o3-search-tries", c.SearchTries, "O3: generated argument tuples tried per discarded step")
	fs.IntVar(&c.FallbackPatience, "o3-fallback-patience", c.FallbackPatience, "O3: stop the fallback for an event after this many fruitless steps in a row (0: never)")
	fs.IntVar(&c.Stall, "o3-stall", c.Stall, "O3: end a sequence after this many discarded steps in a row (0: never, as the paper)")
	fs.IntVar(&c.MaxLength, "o3-max-length", c.MaxLength, "O3: end a sequence after this many kept calls (0: unbounded, as the paper)")
	fs.Uint64Var(&c.Gas, "o3-gas", c.Gas, "O3: gas limit of every call (0: the harness default, 30M)")
	fs.Uint64Var(&c.BlockGap, "o3-block-gap", c.BlockGap, "O3: mean blocks between two calls (0: the history's own pace)")
	// Shared: o3 loads the same records.
	sharedflag.Int(fs, &s.History, "o3-history", s.History, "O3: recorded transactions read for senders, pace and fallback arguments")
}

// unit is what Plan hands to Run.
type unit struct {
	extractor string
	graphPath string
	rec       *deploy.Record
	loadErr   error
	artifact  string
}

// Plan makes one unit per kept contract and extracted graph.
func (s *Stage) Plan(ctx context.Context, env *pipeline.Env) ([]pipeline.Unit, error) {
	if err := s.Config.Validate(); err != nil {
		return nil, fmt.Errorf("sequences: %w", err)
	}
	if s.History < 0 {
		return nil, fmt.Errorf("sequences: --o3-history must not be negative, got %d", s.History)
	}
	in, err := readInputs(env.Warehouse)
	if err != nil || len(in.graphs) == 0 {
		return nil, err
	}
	entries, err := etherscan.ListCorpus(env.Corpus)
	if err != nil {
		return nil, err
	}
	client, err := etherscan.NewRecorded(env.Corpus)
	if err != nil {
		return nil, err
	}
	var units []pipeline.Unit
	for _, e := range entries {
		graphs := in.graphs[e.ID]
		if !in.kept[e.ID] || len(graphs) == 0 {
			continue
		}
		rec, loadErr := deploy.Load(client, e, s.History)
		digest := e.ID
		if rec != nil {
			digest = rec.Digest
		}
		for _, g := range graphs {
			u := unit{extractor: g.Extractor, graphPath: g.Path, rec: rec, loadErr: loadErr, artifact: in.artifacts[e.ID]}
			fp := pipeline.Fingerprint(s.Version(), sequence.Version, s, env.Seed, digest, u.artifact, g.GraphSHA256, pipeline.ErrText(loadErr))
			units = append(units, pipeline.Unit{ID: e.ID + "/" + g.Extractor, Contract: e.ID, Fingerprint: fp, Payload: u})
		}
	}
	return units, nil
}

// inputs are the datasets the stage starts from.
type inputs struct {
	kept      map[string]bool
	artifacts map[string]string
	graphs    map[string][]schemas.DCRGraph // contract -> ok graphs, by extractor
}

func readInputs(w *warehouse.Warehouse) (*inputs, error) {
	orig, err := subjects.ReadOriginals(w)
	if err != nil {
		return nil, err
	}
	graphs, err := warehouse.ReadDataset[schemas.DCRGraph](w, "dcr_graphs")
	if err != nil {
		return nil, err
	}
	in := &inputs{kept: orig.Kept, artifacts: orig.Artifacts, graphs: map[string][]schemas.DCRGraph{}}
	seen := map[string]bool{}
	for _, g := range graphs {
		key := g.ContractID + "\x00" + g.Extractor
		if g.Status != "ok" || g.Path == "" || seen[key] {
			continue
		}
		seen[key] = true
		in.graphs[g.ContractID] = append(in.graphs[g.ContractID], g)
	}
	for _, list := range in.graphs {
		sort.Slice(list, func(i, j int) bool { return list[i].Extractor < list[j].Extractor })
	}
	return in, nil
}

// Run generates one contract's sequences from one extractor's graph.
func (s *Stage) Run(ctx context.Context, env *pipeline.Env, pu pipeline.Unit) (*pipeline.Output, error) {
	u := pu.Payload.(unit)
	if u.loadErr != nil {
		return nil, pipeline.Fail("source", false, u.loadErr)
	}
	if u.artifact == "" {
		return nil, pipeline.Fail("input", false, errors.New("the original has no artifact (run verify)"))
	}
	out, err := artifact.New(env.Data).Get(u.artifact)
	if err != nil {
		return nil, pipeline.Fail("input", false, err)
	}
	g, err := readGraph(env.Data, u.graphPath)
	if err != nil {
		return nil, pipeline.Fail("input", false, err)
	}
	c, err := sequence.FromRecord(u.rec, out, g)
	if err != nil {
		return nil, pipeline.Fail("deploy", false, err)
	}
	cfg := s.Config
	cfg.Seed = UnitSeed(env.Seed, pu.Contract, u.extractor)
	res, err := sequence.Generate(ctx, c, cfg)
	if err != nil {
		return nil, pipeline.Fail("sequences", false, err)
	}
	o := &pipeline.Output{}
	pipeline.Add(o, "sequence_calls", res.Rows(pu.Contract, u.extractor))
	return o, nil
}

// readGraph parses a graph file the dcr stage wrote.
func readGraph(data, rel string) (*dcr.Graph, error) {
	raw, err := os.ReadFile(filepath.Join(data, rel))
	if err != nil {
		return nil, err
	}
	g, err := dcr.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", rel, err)
	}
	return g, nil
}

// UnitSeed derives the seed of one contract's and extractor's generation.
func UnitSeed(seed int64, contractID, extractor string) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d\x00%s\x00%s", seed, contractID, extractor)
	return h.Sum64()
}
