// Package sequences is the validated sequence generation stage of solbehave
// paper §IV-E2 (Algorithm 1, internal/callseq): for every kept contract and
// every extractor whose DCR graph the dcr stage wrote, it deploys the
// original from its stored compiler output and drives the graph against it,
// collecting --o3-budget calls the original accepts, one sequence at a time
// from a fresh deployment. Every call tried, kept or not, is a row of
// `sequence_calls`: the kept ones are the sequences O3 replays, the others,
// at their place, the negative probes O4 replays (stage o3).
//
// --o3-profile chooses the protocol: `paper` (the default, §IV-E2 as
// printed) or `extended` (our senders, retries, argument search and history
// pacing); --o3-users, --o3-history-tries, --o3-search-tries,
// --o3-fallback-patience and --o3-history-pace set one part each over the
// profile. The profile is part of the unit and a column of the rows, and a
// run of one profile leaves the other's units and rows as they are.
//
// One unit per (contract, extractor, profile). Inputs: `contracts` (kept),
// `reproducibility.artifact` (the original's compiler output), `dcr_graphs`
// (status ok; the graph file under <data>/dcr/) and the corpus record
// (deployment, senders, pace and fallback arguments from its first
// --o3-history transactions). Each unit's seed derives from --seed, the
// contract and the extractor (not the profile, so the profiles differ by
// their protocol only), so runs, job counts and shards agree.
package sequences

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"

	"github.com/spf13/pflag"

	"github.com/solbehave/solbehave/internal/artifact"
	"github.com/solbehave/solbehave/internal/callseq"
	"github.com/solbehave/solbehave/internal/config"
	"github.com/solbehave/solbehave/internal/dcrgraph"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/failure"
	"github.com/solbehave/solbehave/internal/sharedflag"
	"github.com/solbehave/solbehave/internal/subjects"
	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

// Stage is the sequences stage.
type Stage struct {
	// Config is Algorithm 1's setting; its Parts come from Profile and
	// Overrides, and its Seed is set per unit from --seed.
	Config    callseq.Config
	Profile   string    // paper, extended
	Overrides Overrides // parts set one by one over the profile
	History   int       // recorded transactions read
}

// Overrides are the profile's parts given on their own (nil: the profile's).
type Overrides struct {
	Users, HistoryTries, SearchTries, FallbackPatience *int
	HistoryPace                                        *bool
}

// New returns the stage with the paper's parameters (T = 1,000, α = 0.8,
// β = 0.7) and profile.
func New() *Stage {
	return &Stage{Config: callseq.DefaultConfig(), Profile: callseq.ProfilePaper, History: 1000}
}

func (s *Stage) Name() string { return "sequences" }

// Version: bump when the sequences for the same input change.
func (s *Stage) Version() string { return "3" } // 3: the attempt bound defaults to callseq.AttemptFactor × T
func (s *Stage) Summary() string {
	return "Algorithm 1: build validated call sequences from each DCR graph on the original (kept and pruned calls)"
}

func (s *Stage) BindFlags(fs *pflag.FlagSet) {
	c, o := &s.Config, &s.Overrides
	fs.IntVar(&c.Budget, "o3-budget", c.Budget, "O3: successful calls Algorithm 1 collects per contract and extractor (T)")
	fs.IntVar(&c.MaxAttempts, "o3-max-attempts", c.MaxAttempts, "O3: most calls tried per contract and extractor, retries included: a guard against runs that can never keep T calls (0: "+strconv.Itoa(callseq.AttemptFactor)+" x --o3-budget; the paper has no bound)")
	config.Share(fs, &c.Alpha, "o3-alpha", c.Alpha, "O3: probability of choosing a prerequisite")
	config.Share(fs, &c.Beta, "o3-beta", c.Beta, "O3: probability of choosing an obligation")
	config.Between(fs, &c.Bonus, "o3-bonus", c.Bonus, 0, math.MaxFloat64, "O3: UCB exploration weight c (success rate + c*sqrt(ln N / n))")
	// Shared: o3 replays the sequences of the same profile.
	sharedflag.String(fs, &s.Profile, "o3-profile", s.Profile, "O3: protocol of Algorithm 1: paper (every call from the deployer, proposed arguments, no retry, one block of 12 s per call) or extended (history senders, retries with recorded and searched arguments, history pace)")
	optionalInt(fs, &o.Users, "o3-users", "O3: user accounts the events of role any are sent from, the history's most frequent senders first; 0: every call from the deployer (default: the profile's, paper 0, extended 4)")
	optionalInt(fs, &o.HistoryTries, "o3-history-tries", "O3: recorded argument tuples retried after a call reverts (default: the profile's, paper 0, extended 3)")
	optionalInt(fs, &o.SearchTries, "o3-search-tries", "O3: generated argument tuples retried after a call reverts, after the recorded ones (default: the profile's, paper 0, extended 4)")
	optionalInt(fs, &o.FallbackPatience, "o3-fallback-patience", "O3: stop the retries of an event after this many fruitless steps in a row, 0: never (default: the profile's, paper 0, extended 3)")
	optionalBool(fs, &o.HistoryPace, "o3-history-pace", "O3: advance the clock by a random gap around the history's pace instead of one block of 12 s per call (default: the profile's, paper false, extended true)")
	fs.IntVar(&c.Stall, "o3-stall", c.Stall, "O3: end a sequence after this many discarded steps in a row (0: never, as the paper)")
	fs.IntVar(&c.MaxLength, "o3-max-length", c.MaxLength, "O3: end a sequence after this many kept calls (0: unbounded, as the paper)")
	fs.Uint64Var(&c.Gas, "o3-gas", c.Gas, "O3: gas limit of every call (0: the harness default, 30M)")
	fs.Uint64Var(&c.BlockGap, "o3-block-gap", c.BlockGap, "O3: mean blocks between two calls (0: one, or the history's pace with --o3-history-pace)")
	// Shared: o3 loads the same records.
	sharedflag.Int(fs, &s.History, "o3-history", s.History, "O3: recorded transactions read for senders, pace and fallback arguments")
}

// config is the Config a unit runs with: the profile's parts, each
// override on top.
func (s *Stage) config() (callseq.Config, error) {
	parts, err := callseq.ProfileParts(s.Profile)
	if err != nil {
		return callseq.Config{}, fmt.Errorf("--o3-profile: %w", err)
	}
	o := s.Overrides
	for _, p := range []struct {
		v   *int
		dst *int
	}{{o.Users, &parts.Users}, {o.HistoryTries, &parts.HistoryTries}, {o.SearchTries, &parts.SearchTries}, {o.FallbackPatience, &parts.FallbackPatience}} {
		if p.v != nil {
			*p.dst = *p.v
		}
	}
	if o.HistoryPace != nil {
		parts.HistoryPace = *o.HistoryPace
	}
	cfg := s.Config
	cfg.Parts = parts
	return cfg, cfg.Validate()
}

// InScope: a run plans one profile's units and leaves the other's.
func (s *Stage) InScope(unitID string) bool {
	p := callseq.UnitProfile(unitID)
	return p == "" || p == s.Profile
}

// unit is what Plan hands to Run.
type unit struct {
	extractor string
	graphPath string
	rec       *deploy.Record
	loadErr   error
	artifact  string
	cfg       callseq.Config
}

// Plan makes one unit per kept contract and extracted graph, for the profile.
func (s *Stage) Plan(ctx context.Context, env *pipeline.Env) ([]pipeline.Unit, error) {
	cfg, err := s.config()
	if err != nil {
		return nil, fmt.Errorf("sequences: %w", err)
	}
	if s.History < 0 {
		return nil, fmt.Errorf("sequences: --o3-history must not be negative, got %d", s.History)
	}
	in, err := readInputs(env.Warehouse)
	if err != nil || len(in.graphs) == 0 {
		return nil, err
	}
	kept, err := subjects.KeptIn(env.Corpus, in.orig, s.History, func(id string) bool { return len(in.graphs[id]) > 0 })
	if err != nil {
		return nil, err
	}
	var units []pipeline.Unit
	for _, sub := range kept {
		id := sub.Entry.ID
		for _, g := range in.graphs[id] {
			u := unit{extractor: g.Extractor, graphPath: g.Path, rec: sub.Record, loadErr: sub.LoadErr, artifact: sub.Artifact, cfg: cfg}
			fp := pipeline.Fingerprint(s.Version(), callseq.Version, cfg, s.Profile, s.History, env.Seed, sub.Digest, u.artifact, g.GraphSHA256, pipeline.ErrText(sub.LoadErr))
			units = append(units, pipeline.Unit{ID: id + "/" + g.Extractor + "/" + s.Profile, Contract: id, Fingerprint: fp, Payload: u})
		}
	}
	return units, nil
}

// inputs are the datasets the stage starts from.
type inputs struct {
	orig   *subjects.Originals
	graphs map[string][]schemas.DCRGraph // contract -> ok graphs, by extractor
}

func readInputs(w *warehouse.Warehouse) (*inputs, error) {
	orig, err := subjects.ReadOriginals(w)
	if err != nil {
		return nil, err
	}
	graphs, err := warehouse.ReadDataset(w, schemas.DCRGraphs)
	if err != nil {
		return nil, err
	}
	in := &inputs{orig: orig, graphs: map[string][]schemas.DCRGraph{}}
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
		return nil, failure.New(failure.Source, false, u.loadErr)
	}
	if u.artifact == "" {
		return nil, failure.New(failure.Input, false, errors.New("the original has no artifact (run verify)"))
	}
	out, err := artifact.New(env.Data).Get(u.artifact)
	if err != nil {
		return nil, failure.New(failure.Input, false, err)
	}
	g, err := readGraph(env.Data, u.graphPath)
	if err != nil {
		return nil, failure.New(failure.Input, false, err)
	}
	c, err := callseq.FromRecord(u.rec, out, g)
	if err != nil {
		return nil, failure.New(failure.Deploy, false, err)
	}
	cfg := u.cfg
	cfg.Seed = UnitSeed(env.Seed, pu.Contract, u.extractor)
	res, err := callseq.Generate(ctx, c, cfg)
	if err != nil {
		return nil, failure.New(failure.Sequences, false, err)
	}
	o := &pipeline.Output{}
	pipeline.Add(o, schemas.SequenceCalls, res.Rows(pu.Contract, u.extractor, s.Profile))
	return o, nil
}

// readGraph parses a graph file the dcr stage wrote.
func readGraph(data, rel string) (*dcrgraph.Graph, error) {
	raw, err := os.ReadFile(filepath.Join(data, rel))
	if err != nil {
		return nil, err
	}
	g, err := dcrgraph.Parse(raw)
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
