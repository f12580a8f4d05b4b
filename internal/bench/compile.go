package bench

import (
	"context"
	"errors"
	"time"

	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/solc"
)

// compileSamples compiles the original again on the persistent worker to
// make the k samples of O2 end to end (a recompile stands in for a generated
// sample until the generation stages write samples); each compile is also a
// persistent-worker throughput measurement. With SampleCompiles below k,
// the samples reuse the compiled outputs in turn and the k compiles' time is
// estimated from the measured mean.
func (b *bencher) compileSamples(ctx context.Context, cr *contractRun, rec *deploy.Record) []*solc.Output {
	if cr.Skip != "" {
		return nil
	}
	n := b.cfg.Samples
	if c := b.cfg.SampleCompiles; c > 0 && c < n {
		n = c
	}
	var outs []*solc.Output
	var total time.Duration
	for range n {
		start := time.Now()
		out, err := b.warm.Compile(ctx, rec.CompileInput(nil))
		if err != nil {
			cr.CompileErr = err.Error()
			return nil
		}
		elapsed := time.Since(start)
		total += elapsed
		cr.CompileWarm = append(cr.CompileWarm, elapsed)
		outs = append(outs, out)
	}
	cr.O2Compile = total * time.Duration(b.cfg.Samples) / time.Duration(n)
	cr.O2CompileEstimated = n < b.cfg.Samples
	samples := make([]*solc.Output, b.cfg.Samples)
	for i := range samples {
		samples[i] = outs[i%n]
	}
	return samples
}

// compileSpawned compiles the original SpawnCompiles times, each in a fresh
// Node process that loads the compiler anew: the baseline.
func (b *bencher) compileSpawned(ctx context.Context, cr *contractRun, rec *deploy.Record) {
	if cr.Skip != "" {
		return
	}
	for range b.cfg.SpawnCompiles {
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
