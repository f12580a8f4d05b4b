// Package o2 is the historical transaction replay oracle of solbehave paper
// §IV-D: for every kept contract with at least one compiling sample, the
// original C* and every compiling sample Ĉ are deployed from source (never by
// injecting bytecode) from the original deployer with the original's
// constructor arguments, so all sit at the same address and privileged calls
// line up; the contract's first --o2-budget recorded transactions after its
// creation are then re-issued to each, in order, from their original
// senders, with their value, gas limit, block number and timestamp, and
// compared call by call (internal/replay).
//
// One unit per contract: the original is deployed and replayed once, and
// every sample is compared with that one trace. Inputs: `contracts` (kept),
// `reproducibility.artifact` (the original's compiler output), `samples`
// (compiled_repaired, with an artifact) and the corpus record. Outputs:
// `replay_calls` (one row per call per sample, oracle O2), `view_snapshots`
// and `coverage` (O2's, the same for every model, so `model` is "").
//
// A sample that compiled but cannot be deployed (its constructor reverts, or
// it lacks the target contract) stays in the comparison and answers every
// call as `undeployed`: a deployment the original survives and the sample
// does not is a divergence, not a missing data point.
//
// Gas-limit policy: each call gets its transaction's recorded gas limit
// (--o2-gas overrides it), so the original behaves as verify checked it did;
// a sample needing more gas than the sender allowed runs out of it, which
// shows as a status divergence with `out of gas` as the sample's reason.
package o2

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/spf13/pflag"

	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/failure"
	"github.com/solbehave/solbehave/internal/replay"
	"github.com/solbehave/solbehave/internal/sharedflag"
	"github.com/solbehave/solbehave/internal/subjects"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

// Stage is the o2 stage.
type Stage struct {
	Budget        int // historical transactions replayed per contract
	SnapshotEvery int // calls between two readings of the zero-argument views
	// GasLimit, when set, replaces every transaction's recorded gas limit.
	// By default (0) each call gets its recorded limit, as verify replays it:
	// the original then ends as its record did, and a sample that needs more
	// gas than the sender allowed runs out of it, as it would have on mainnet.
	GasLimit uint64
}

// New returns the stage with the paper's parameters.
func New() *Stage { return &Stage{Budget: 1000, SnapshotEvery: 50} }

func (s *Stage) Name() string    { return "o2" }
func (s *Stage) Version() string { return "2" }
func (s *Stage) Summary() string {
	return "O2: replay each contract's history on the original and every compiling sample, compare call by call"
}

func (s *Stage) BindFlags(fs *pflag.FlagSet) {
	fs.IntVar(&s.Budget, "o2-budget", s.Budget, "O2: historical transactions replayed per contract")
	fs.Uint64Var(&s.GasLimit, "o2-gas", s.GasLimit, "O2: gas limit of every replayed call (0: each transaction's recorded limit)")
	// Shared: O3 reads the same flag.
	sharedflag.Int(fs, &s.SnapshotEvery, "snapshot-every", s.SnapshotEvery, "replay oracles: calls between two readings of the zero-argument view functions (0: none)")
}

// unit is what Plan hands to Run.
type unit struct {
	rec          *deploy.Record
	loadErr      error
	origArtifact string
	samples      []schemas.Sample
}

// Plan makes, per kept contract with at least one compiling sample, one
// unit per model (its samples' call and view rows) and one for the original
// alone (the coverage of its history): a model's run never rewrites another
// model's rows, so an evaluation grows model by model.
func (s *Stage) Plan(ctx context.Context, env *pipeline.Env) ([]pipeline.Unit, error) {
	if s.Budget <= 0 {
		return nil, fmt.Errorf("o2: --o2-budget must be positive, got %d", s.Budget)
	}
	kept, samples, err := subjects.KeptCompared(env.Warehouse, env.Corpus, s.Budget, nil)
	if err != nil {
		return nil, err
	}
	var units []pipeline.Unit
	for _, sub := range kept {
		id := sub.Entry.ID
		u := unit{rec: sub.Record, loadErr: sub.LoadErr, origArtifact: sub.Artifact}
		fp := pipeline.Fingerprint(s.Version(), s, sub.Digest, u.origArtifact, pipeline.ErrText(u.loadErr))
		units = append(units, pipeline.Unit{ID: id, Contract: id, Fingerprint: fp, Payload: u})
		byModel := subjects.ByModel(samples[id])
		for _, model := range slices.Sorted(maps.Keys(byModel)) {
			mu := u
			mu.samples = byModel[model]
			fp := pipeline.Fingerprint(s.Version(), s, sub.Digest, u.origArtifact, subjects.Keys(mu.samples), pipeline.ErrText(u.loadErr))
			units = append(units, pipeline.Unit{ID: id + "/" + model, Contract: id, Model: model, Fingerprint: fp, Payload: mu})
		}
	}
	return units, nil
}

// Run replays one contract's history on its original and one model's
// samples (their call and view rows), or on the original alone (its
// coverage rows).
func (s *Stage) Run(ctx context.Context, env *pipeline.Env, pu pipeline.Unit) (*pipeline.Output, error) {
	u := pu.Payload.(unit)
	// A record that did not load fails in DeployUnit, as the source's fault.
	if u.loadErr == nil && len(u.rec.Txs) == 0 {
		return nil, failure.New(failure.NoHistory, false, errors.New("no transactions after the creation"))
	}
	orig, samples, err := subjects.DeployUnit(env.Data, u.rec, u.loadErr, u.origArtifact, u.samples)
	if err != nil {
		return nil, err
	}
	res, err := replay.Compare(ctx, orig, samples, []replay.Sequence{s.history(u.rec)},
		replay.Options{SnapshotEvery: s.SnapshotEvery})
	if err != nil {
		return nil, err
	}
	labels := replay.Labels{ContractID: pu.Contract, Oracle: schemas.OracleO2}
	out := &pipeline.Output{}
	if pu.Model == "" {
		pipeline.Add(out, schemas.Coverage, res.CoverageRows(labels, ""))
		return out, nil
	}
	pipeline.Add(out, schemas.ReplayCalls, res.CallRows(labels))
	pipeline.Add(out, schemas.ViewSnapshots, res.ViewRows(labels))
	return out, nil
}

// history is the record's transactions as O2 sends them.
func (s *Stage) history(rec *deploy.Record) replay.Sequence {
	seq := replay.History(rec.Txs)
	if s.GasLimit > 0 {
		for i := range seq.Calls {
			seq.Calls[i].Gas = s.GasLimit
		}
	}
	return seq
}
