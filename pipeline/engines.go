package pipeline

import (
	"os"
	"sync"

	"github.com/solbehave/solbehave/internal/cpuclock"
	"github.com/solbehave/solbehave/internal/solc"
)

// Engines holds the shared engines a run creates once and every stage reuses.
type Engines struct {
	SolcOptions solc.Options

	solcOnce  sync.Once
	solc      *solc.Manager
	meterOnce sync.Once
	meter     *cpuclock.Meter
}

// Meter returns the run's unit meter: every unit's wall time, its share of
// the process tree's CPU (solc workers included), of the solc workers
// started and of their youth (Usage.Counts in that order), however many
// units run at once.
func (e *Engines) Meter() *cpuclock.Meter {
	e.meterOnce.Do(func() {
		m := e.Solc()
		e.meter = cpuclock.NewMeter(func() float64 { return float64(m.Started()) }, m.Youth)
	})
	return e.meter
}

// Solc returns the run's compiler manager (persistent workers, shared by all units).
func (e *Engines) Solc() *solc.Manager {
	e.solcOnce.Do(func() {
		opts := e.SolcOptions
		if opts.OutputCache == "" {
			opts.OutputCache = os.Getenv(solc.CompileCacheEnv)
		}
		e.solc = solc.NewManager(opts)
	})
	return e.solc
}

// Close stops the engines' background processes.
func (e *Engines) Close() {
	if e.solc != nil {
		e.solc.Close()
	}
}
