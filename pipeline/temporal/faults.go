package temporal

import (
	"context"
	"fmt"
	"strings"

	"github.com/solbehave/solbehave/internal/failure"
	"github.com/solbehave/solbehave/pipeline"
)

// FaultEnv names the environment variable a worker reads injected faults
// from, for tests of the retry path on real workers:
//
//	SOLBEHAVE_TEMPORAL_FAULTS=STAGE:UNIT:KIND[,...]
//
// UNIT is a substring of the unit id; KIND is "retriable" (the unit's first
// attempt fails with a retriable error of class "injected") or "fatal" (every
// attempt fails with a non-retriable one). The failure comes from the
// stage's Run, so it takes the path a real one takes.
const FaultEnv = "SOLBEHAVE_TEMPORAL_FAULTS"

// Fault is one injected failure.
type Fault struct {
	Stage, Unit string
	Retriable   bool
}

// ParseFaults reads FaultEnv's format.
func ParseFaults(spec string) ([]Fault, error) {
	var out []Fault
	for _, part := range strings.Split(spec, ",") {
		if part = strings.TrimSpace(part); part == "" {
			continue
		}
		f := strings.Split(part, ":")
		if len(f) != 3 || (f[2] != "retriable" && f[2] != "fatal") {
			return nil, fmt.Errorf("%s: %q: want STAGE:UNIT:retriable|fatal", FaultEnv, part)
		}
		out = append(out, Fault{Stage: f[0], Unit: f[1], Retriable: f[2] == "retriable"})
	}
	return out, nil
}

// faulty is a stage whose Run fails for the units a fault names.
type faulty struct {
	pipeline.Stage
	faults  []Fault
	attempt int32
}

// inject wraps a stage with this worker's faults for one attempt.
func (w *Worker) inject(s pipeline.Stage, attempt int32) pipeline.Stage {
	var mine []Fault
	for _, f := range w.Faults {
		if f.Stage == s.Name() {
			mine = append(mine, f)
		}
	}
	if len(mine) == 0 {
		return s
	}
	return faulty{Stage: s, faults: mine, attempt: attempt}
}

func (s faulty) Run(ctx context.Context, env *pipeline.Env, u pipeline.Unit) (*pipeline.Output, error) {
	for _, f := range s.faults {
		if !strings.Contains(u.ID, f.Unit) || (f.Retriable && s.attempt > 1) {
			continue
		}
		return nil, failure.New(failure.Injected, f.Retriable, fmt.Errorf("injected fault (%s) on attempt %d", kind(f), s.attempt))
	}
	return s.Stage.Run(ctx, env, u)
}

func kind(f Fault) string {
	if f.Retriable {
		return "retriable"
	}
	return "fatal"
}
