package bench

import (
	"context"
	"time"

	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/solc"
)

// compileWarm compiles the original SpawnCompiles more times on the
// persistent worker: the throughput figure paired with the spawned compiles.
// The last output is a second build of the same source, O1's sample.
func (b *bencher) compileWarm(ctx context.Context, cr *contractRun, rec *deploy.Record) *solc.Output {
	if cr.Skip != "" {
		return nil
	}
	var out *solc.Output
	for range b.cfg.SpawnCompiles {
		start := time.Now()
		var err error
		if out, err = b.warm.Compile(ctx, rec.CompileInput(nil)); err != nil {
			cr.CompileErr = err.Error()
			return nil
		}
		cr.CompileWarm = append(cr.CompileWarm, time.Since(start))
	}
	return out
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

// spawnOnce times one compile in its own Node process (solc.Options.Spawn).
func (b *bencher) spawnOnce(ctx context.Context, in solc.Input) (time.Duration, error) {
	start := time.Now()
	_, err := b.spawn.Compile(ctx, in)
	return time.Since(start), err
}
