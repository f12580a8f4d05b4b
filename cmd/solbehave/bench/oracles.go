package bench

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/solbehave/solbehave/internal/artifact"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/solc"
	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
	"github.com/solbehave/solbehave/stages/dcr"
	"github.com/solbehave/solbehave/stages/o2"
	"github.com/solbehave/solbehave/stages/o3"
	"github.com/solbehave/solbehave/stages/sequences"
)

// oraclesEndToEnd runs the replay oracles' stages, through the pipeline
// runner, on this contract and its k samples in a scratch data folder, as
// `solbehave o2` and `solbehave dcr sequences o3` do per contract (load,
// deploy the original and every sample, replay, compare, write Parquet):
// O2 is the o2 stage; O3 is dcr (static extractor), sequences (Algorithm 1
// on the original) and o3. Their times plus the k samples' generation and
// compiles are each oracle end to end per contract.
func (b *bencher) oraclesEndToEnd(ctx context.Context, cr *contractRun, rec *deploy.Record, orig *solc.Output, samples []*solc.Output) {
	if cr.Skip != "" || len(samples) == 0 {
		return
	}
	scratch, err := os.MkdirTemp("", "solbench-oracles-")
	if err != nil {
		cr.O2Err = err.Error()
		return
	}
	defer os.RemoveAll(scratch)
	env := &pipeline.Env{Corpus: b.cfg.Corpus, Data: scratch, Seed: 42, Jobs: 1,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Out: io.Discard,
		Warehouse: warehouse.New(filepath.Join(scratch, "warehouse")), Engines: &pipeline.Engines{}}
	defer env.Engines.Close()
	if err := writeOracleInputs(env, rec.Entry.ID, orig, samples); err != nil {
		cr.O2Err = err.Error()
		return
	}
	runner := &pipeline.Runner{Env: env, Force: true}
	o2Stage, dcrStage, seqStage, o3Stage := b.oracleStages()
	for range b.cfg.Runs {
		d, err := runStage(ctx, runner, o2Stage)
		if err != nil {
			cr.O2Err = err.Error()
			return
		}
		cr.O2Stage = append(cr.O2Stage, d)
	}
	for run := range b.cfg.Runs {
		var total time.Duration
		for _, s := range []pipeline.Stage{dcrStage, seqStage, o3Stage} {
			d, err := runStage(ctx, runner, s)
			if err != nil {
				cr.O3Err = err.Error()
				return
			}
			total += d
			if s == seqStage {
				cr.SeqStage = append(cr.SeqStage, d)
			}
		}
		cr.O3Stage = append(cr.O3Stage, total)
		if run == 0 {
			calls, err := warehouse.ReadDataset(env.Warehouse, schemas.SequenceCalls)
			if err != nil {
				cr.O3Err = err.Error()
				return
			}
			cr.SeqCalls = len(calls)
		}
	}
}

// oracleStages are the stages at their paper settings, reading the bench's
// history length, with no annotations (the bench measures the oracles).
func (b *bencher) oracleStages() (o2s, dcrs, seqs, o3s pipeline.Stage) {
	o := o2.New()
	o.Budget = b.cfg.Txs
	d := dcr.New()
	d.Annotations, d.History = "", b.cfg.Txs
	s := sequences.New()
	s.History = b.cfg.Txs
	if b.cfg.O3Budget > 0 {
		s.Config.Budget = b.cfg.O3Budget
	}
	r := o3.New()
	r.History = b.cfg.Txs
	return o, d, s, r
}

// runStage runs one stage over the scratch folder's single contract (its
// every unit: O2 and O3 have one for the original and one for the model).
func runStage(ctx context.Context, runner *pipeline.Runner, s pipeline.Stage) (time.Duration, error) {
	start := time.Now()
	c, err := runner.Run(ctx, s)
	elapsed := time.Since(start)
	if err == nil && (c.Ran == 0 || c.Ran != c.Units || c.Failed != 0) {
		err = fmt.Errorf("%s ran %d unit(s), %d failed", s.Name(), c.Ran, c.Failed)
	}
	if err != nil {
		return 0, fmt.Errorf("%s: %w", s.Name(), err)
	}
	return elapsed, nil
}

// writeOracleInputs writes what verify and the generation stages would
// have: the contract kept, its original's artifact, and k compiling samples.
func writeOracleInputs(env *pipeline.Env, id string, orig *solc.Output, samples []*solc.Output) error {
	store := artifact.New(env.Data)
	origID, err := store.Put(orig)
	if err != nil {
		return err
	}
	rows := make([]schemas.Sample, len(samples))
	for i, out := range samples {
		a, err := store.Put(out)
		if err != nil {
			return err
		}
		rows[i] = schemas.Sample{ContractID: id, Model: sampleModel, Sample: int64(i), Generator: sampleModel,
			CompiledRaw: true, CompiledRepaired: true, CompilerUsed: out.CompilerUsed, Artifact: a}
	}
	part := warehouse.ByContract(id)
	if err := warehouse.Write(env.Warehouse.Path(schemas.Contracts.Name(), part, "bench"), []schemas.Contract{{ContractID: id, Kept: true}}); err != nil {
		return err
	}
	repro := []schemas.ReproducibilityRow{{ContractID: id, Kept: true, Artifact: origID}}
	if err := warehouse.Write(env.Warehouse.Path(schemas.Reproducibility.Name(), part, "bench"), repro); err != nil {
		return err
	}
	return warehouse.Write(env.Warehouse.Path(schemas.Samples.Name(), part, "bench"), rows)
}
