package bench

import (
	"context"
	"errors"
	"time"

	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/solc"
)

// compileSamples compiles the original k more times on the persistent
// worker: the k samples of O2 end to end (a recompile stands in for a
// generated sample until the generation stages write samples), each compile
// also a persistent-worker throughput measurement.
func (b *bencher) compileSamples(ctx context.Context, cr *contractRun, rec *deploy.Record) []*solc.Output {
	if cr.Skip != "" {
		return nil
	}
	var outs []*solc.Output
	start := time.Now()
	for range b.cfg.Samples {
		one := time.Now()
		out, err := b.warm.Compile(ctx, rec.CompileInput(nil))
		if err != nil {
			cr.CompileErr = err.Error()
			return nil
		}
		cr.CompileWarm = append(cr.CompileWarm, time.Since(one))
		outs = append(outs, out)
	}
	cr.O2Compile = time.Since(start)
	return outs
}

// compileSpawned compiles the original once per run in a fresh Node process
// that loads the compiler anew each time: the baseline.
func (b *bencher) compileSpawned(ctx context.Context, cr *contractRun, rec *deploy.Record) {
	if cr.Skip != "" {
		return
	}
	for range b.cfg.Runs {
		elapsed, err := b.spawnOnce(ctx, rec.CompileInput(nil))
		if err != nil {
			cr.CompileErr = "spawned compile: " + err.Error()
			return
		}
		cr.CompileSpawn = append(cr.CompileSpawn, elapsed)
	}
}

// spawnOnce times one compile in its own process: through solc.Options.Spawn,
// or, once that has failed with a crashed worker, through a fresh Manager
// whose only worker is started for the compile and killed after it (the
// same work: start Node, load soljson, compile once).
func (b *bencher) spawnOnce(ctx context.Context, in solc.Input) (time.Duration, error) {
	if !b.spawnBroken {
		start := time.Now()
		_, err := b.spawn.Compile(ctx, in)
		if err == nil || !errors.Is(err, solc.ErrWorkerCrashed) {
			return time.Since(start), err
		}
		b.spawnBroken = true
		b.note("compile.spawn: solc.Options.Spawn failed (" + firstLine(clip(err.Error(), 160)) +
			"); the baseline is a fresh solc.Manager per compile instead (one Node process started, used once, killed)")
	}
	start := time.Now()
	m := solc.NewManager(solc.Options{MaxWorkers: 1})
	_, err := m.Compile(ctx, in)
	m.Close()
	return time.Since(start), err
}
