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
	"github.com/solbehave/solbehave/stages/o2"
)

// o2EndToEnd runs the o2 stage, through the pipeline runner, on this
// contract and its k samples in a scratch data folder: what `solbehave o2`
// does per contract (load, deploy the original and every sample, replay,
// compare, write Parquet). Its time plus the k sample compiles is O2 end to
// end per contract.
func (b *bencher) o2EndToEnd(ctx context.Context, cr *contractRun, rec *deploy.Record, samples []*solc.Output) {
	if cr.Skip != "" || len(samples) == 0 {
		return
	}
	scratch, err := os.MkdirTemp("", "solbench-o2-")
	if err != nil {
		cr.O2Err = err.Error()
		return
	}
	defer os.RemoveAll(scratch)
	env := &pipeline.Env{Corpus: b.cfg.Corpus, Data: scratch, Seed: 42, Jobs: 1,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Out: io.Discard,
		Warehouse: warehouse.New(filepath.Join(scratch, "warehouse")), Engines: &pipeline.Engines{}}
	defer env.Engines.Close()
	if err := writeO2Inputs(env, rec.Entry.ID, samples); err != nil {
		cr.O2Err = err.Error()
		return
	}
	stage := o2.New()
	stage.Budget = b.cfg.Txs
	runner := &pipeline.Runner{Env: env, Force: true}
	for range b.cfg.Runs {
		start := time.Now()
		c, err := runner.Run(ctx, stage)
		elapsed := time.Since(start)
		if err == nil && (c.Ran != 1 || c.Failed != 0) {
			err = fmt.Errorf("o2 ran %d unit(s), %d failed", c.Ran, c.Failed)
		}
		if err != nil {
			cr.O2Err = err.Error()
			return
		}
		cr.O2Stage = append(cr.O2Stage, elapsed)
	}
}

// writeO2Inputs writes what verify and the generation stages would have:
// the contract kept, its original's artifact, and k compiling samples.
func writeO2Inputs(env *pipeline.Env, id string, samples []*solc.Output) error {
	store := artifact.New(env.Data)
	orig, err := store.Put(samples[0])
	if err != nil {
		return err
	}
	rows := make([]schemas.Sample, len(samples))
	for i, out := range samples {
		a, err := store.Put(out)
		if err != nil {
			return err
		}
		rows[i] = schemas.Sample{ContractID: id, Model: "bench-recompile", Sample: int64(i), Generator: "recompile",
			CompiledRaw: true, CompiledRepaired: true, CompilerUsed: out.CompilerUsed, Artifact: a}
	}
	part := warehouse.ByContract(id)
	if err := warehouse.Write(env.Warehouse.Path("contracts", part, "bench"), []schemas.Contract{{ContractID: id, Kept: true}}); err != nil {
		return err
	}
	repro := []schemas.Reproducibility{{ContractID: id, Kept: true, Artifact: orig}}
	if err := warehouse.Write(env.Warehouse.Path("reproducibility", part, "bench"), repro); err != nil {
		return err
	}
	return warehouse.Write(env.Warehouse.Path("samples", part, "bench"), rows)
}
