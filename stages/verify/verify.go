// Package verify is the reproducibility check of solbehave paper §IV-A(b):
// each corpus contract is compiled from its verified source, deployed fresh
// on an embedded chain as it was on mainnet, and its first transactions are
// replayed in order; a contract is kept when enough of them end as recorded.
//
// Gas-limit policy: each replayed transaction gets its recorded gas limit.
// The chain applies the fork rules of the transaction's block, so gas costs
// match the ones the sender faced, and a transaction that ran out of gas on
// mainnet runs out here too; a larger limit would turn recorded out-of-gas
// failures into successes. Deployments get a generous fixed limit instead
// (deploy.DeployGas), because a constructor's recorded gas was set for a chain
// we do not reproduce (warm state, other contracts).
package verify

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/pflag"

	"github.com/solbehave/solbehave/internal/artifact"
	"github.com/solbehave/solbehave/internal/chain"
	"github.com/solbehave/solbehave/internal/config"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/etherscan"
	"github.com/solbehave/solbehave/internal/failure"
	"github.com/solbehave/solbehave/internal/sharedflag"
	"github.com/solbehave/solbehave/internal/solc"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

// Stage is the verify stage.
type Stage struct {
	Budget    int     // transactions replayed per contract
	Threshold float64 // share that must reproduce for the contract to be kept
	MinFns    int     // size filter: fewest non-trivial functions kept
	MaxFns    int     // size filter: most non-trivial functions kept
	MinTxs    int     // crawl filter: fewest transactions after the creation
}

// New returns the stage with the paper's parameters.
func New() *Stage { return &Stage{Budget: 200, Threshold: 0.80, MinFns: 1, MaxFns: 20, MinTxs: 200} }

func (s *Stage) Name() string    { return "verify" }
func (s *Stage) Version() string { return "3" }
func (s *Stage) Summary() string {
	return "compile each original, deploy it fresh, replay its first transactions; keep the reproducible ones"
}

func (s *Stage) BindFlags(fs *pflag.FlagSet) {
	fs.IntVar(&s.Budget, "verify-budget", s.Budget, "historical transactions replayed per contract")
	config.Share(fs, &s.Threshold, "keep-threshold", s.Threshold, "share of replayed transactions that must reproduce")
	fs.IntVar(&s.MinFns, "min-functions", s.MinFns, "size filter: fewest non-trivial functions")
	fs.IntVar(&s.MaxFns, "max-functions", s.MaxFns, "size filter: most non-trivial functions")
	sharedflag.Int(fs, &s.MinTxs, "min-txs", s.MinTxs, "fewest historical transactions a candidate needs (crawl and verify)")
}

// unit is what Plan hands to Run.
type unit struct {
	rec     *deploy.Record
	loadErr error
	txs     int // calls to the contract the record holds, read up to max(Budget, MinTxs)
}

// Plan reads every corpus contract through the recorded Etherscan client.
func (s *Stage) Plan(ctx context.Context, env *pipeline.Env) ([]pipeline.Unit, error) {
	corpus, err := deploy.OpenCorpus(env.Corpus)
	if err != nil {
		return nil, err
	}
	units := make([]pipeline.Unit, 0, len(corpus.Entries))
	for _, e := range corpus.Entries {
		// Read enough history to apply the crawl's transaction filter, then
		// replay only the budget.
		rec, err := corpus.Load(e, max(s.Budget, s.MinTxs))
		u := unit{rec: rec, loadErr: err}
		if rec != nil {
			u.txs = len(rec.Txs)
			rec.Txs = rec.Txs[:min(len(rec.Txs), s.Budget)]
		}
		fp := pipeline.Fingerprint(s.Version(), s, e.ID, pipeline.ErrText(err))
		if rec != nil {
			fp = pipeline.Fingerprint(s.Version(), s, rec.Digest, pipeline.ErrText(err))
		} else {
			u.rec = &deploy.Record{Entry: e}
		}
		units = append(units, pipeline.Unit{ID: e.ID, Contract: e.ID, Fingerprint: fp, Payload: u, Affinity: compilerOf(rec)})
	}
	return units, nil
}

// compilerOf is the compiler a record asks for ("" when unknown).
func compilerOf(rec *deploy.Record) string {
	if rec == nil || rec.Source == nil {
		return ""
	}
	return rec.Source.CompilerVersion
}

// Run verifies one contract. A contract that cannot be verified still gets
// its rows, with the reason, beside the error.
func (s *Stage) Run(ctx context.Context, env *pipeline.Env, pu pipeline.Unit) (*pipeline.Output, error) {
	u := pu.Payload.(unit)
	v := &verdict{rec: u.rec, repro: schemas.ReproducibilityRow{
		ContractID: pu.Contract, Address: u.rec.Entry.Address, Name: u.rec.Name(), FirstDivergingTx: -1,
	}}
	if u.rec.Source != nil {
		v.repro.CompilerRequested = u.rec.Source.CompilerVersion
	}
	err := u.loadErr
	if err == nil {
		v.repro.ReasonClass, v.repro.Reason = s.crawlFilter(u.rec, u.txs)
	}
	if err == nil && v.repro.ReasonClass == "" {
		err = s.verify(ctx, env, v)
	}
	if err != nil {
		v.fail(err)
	}
	s.judge(v)
	out := &pipeline.Output{}
	pipeline.Add(out, schemas.VerifyCalls, v.calls)
	pipeline.Add(out, schemas.Reproducibility, []schemas.ReproducibilityRow{v.repro})
	pipeline.Add(out, schemas.Contracts, []schemas.Contract{v.contractRow()})
	pipeline.Add(out, schemas.Functions, v.functionRows)
	if err != nil {
		return out, failure.New(reasonClass(err), false, err)
	}
	return out, nil
}

// transient tells a failure that a rerun may not meet: a compiler that could
// not be installed (the registry unreachable, its cache's disk full). It
// keeps its class in the unit's error row (see failure.New) and its reason.
func transient(err error) bool {
	var fe *failure.Error
	return errors.As(err, &fe) && fe.Retriable
}

// verify compiles, deploys and replays, filling v.
func (s *Stage) verify(ctx context.Context, env *pipeline.Env, v *verdict) error {
	rec := v.rec
	v.repro.SourceFormat = rec.Files.Format
	in := rec.CompileInput(nil)
	in.Targets = []string{rec.Name()} // later stages deploy it and read every file's AST
	out, err := env.Engines.Solc().Compile(ctx, in)
	if transient(err) {
		return err // its own class (network, storage): the contract is not judged on it
	}
	if err != nil {
		return &stepError{class: failure.Compile, err: err}
	}
	v.repro.CompilerUsed = out.CompilerUsed
	if v.repro.Artifact, err = artifact.New(env.Data).Put(out); err != nil {
		return err
	}
	target, err := rec.Target(out)
	if err != nil {
		return &stepError{class: failure.Compile, err: err}
	}
	v.functionRows = functionRows(v.repro.ContractID, out, target, rec.Files.Files)
	v.functions = countFunctions(target, v.functionRows)
	d, err := deploy.Deploy(rec, out, target, nil, chain.Options{})
	if err != nil {
		return &stepError{class: failure.Deploy, err: err}
	}
	v.repro.ConstructorArgsSource = d.ArgsSource
	v.repro.AtRecordedAddress = d.AtRecorded
	if len(rec.Txs) == 0 {
		return &stepError{class: failure.NoHistory, err: errors.New("no transactions after the creation")}
	}
	return v.replay(ctx, d)
}

// replay re-issues the recorded transactions in order on the deployment.
func (v *verdict) replay(ctx context.Context, d *deploy.Deployment) error {
	for _, tx := range v.rec.Txs {
		if err := ctx.Err(); err != nil {
			return err
		}
		res, err := d.Replay(d.Chain, tx)
		if err != nil {
			return &stepError{class: failure.Replay, err: fmt.Errorf("tx %d (%s): %w", tx.Index, tx.Hash, err)}
		}
		v.record(d, tx, res)
	}
	return nil
}

// judge applies the reproducibility threshold and fills the reason.
func (s *Stage) judge(v *verdict) {
	r := &v.repro
	if r.Replayed > 0 {
		r.ReproducedFraction = float64(r.Reproduced) / float64(r.Replayed)
	}
	if r.ReasonClass != "" {
		return
	}
	r.Kept = r.Replayed > 0 && r.ReproducedFraction >= s.Threshold
	if !r.Kept {
		r.ReasonClass = "diverged"
		r.Reason = fmt.Sprintf("%d/%d transactions reproduced (< %.0f%%); first diverging tx %d%s",
			r.Reproduced, r.Replayed, s.Threshold*100, r.FirstDivergingTx, v.firstReason)
	}
	v.sizeKept = v.functions.nontrivial >= s.MinFns && v.functions.nontrivial <= s.MaxFns
}

// stepError carries the reason class of a failed verification step.
type stepError struct {
	class failure.Class
	err   error
}

func (e *stepError) Error() string { return e.err.Error() }
func (e *stepError) Unwrap() error { return e.err }

// reasonClass maps a failure to the reason classes of the reproducibility dataset.
func reasonClass(err error) failure.Class {
	var se *stepError
	var ee *etherscan.Error
	var ce *solc.CompileError
	var fe *failure.Error
	switch {
	case errors.As(err, &se):
		return se.class
	case errors.As(err, &fe):
		return fe.Class
	case errors.Is(err, etherscan.ErrUnverified):
		return failure.Unverified
	case errors.As(err, &ee):
		return failure.Source
	case errors.As(err, &ce):
		return failure.Compile
	default:
		return failure.Source
	}
}
