package bench

import (
	"context"
	"runtime"
	"time"

	"github.com/solbehave/solbehave/internal/chain"
	"github.com/solbehave/solbehave/internal/cpuclock"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/replay"
	"github.com/solbehave/solbehave/schemas"
)

// timing is one measurement by two clocks: wall time, and the CPU time of
// the whole process (every thread: the garbage collector's work counts),
// which a loaded machine inflates far less.
type timing struct {
	Wall, CPU time.Duration
}

// measure times f after a collection, so no engine pays for the previous
// one's garbage.
func measure(f func()) timing {
	runtime.GC()
	cpu, wall := cpuclock.Process(), time.Now()
	f()
	return timing{Wall: time.Since(wall), CPU: cpuclock.Process() - cpu}
}

// replayOurs replays txs on a fork of h (the post-deployment state, with h's
// options) through deploy.Replay, keeping every Result as a consumer would.
func replayOurs(d *deploy.Deployment, h *chain.Harness, txs []deploy.Tx) ([]string, []*chain.Result) {
	f := h.Fork()
	results := make([]*chain.Result, len(txs))
	statuses := make([]string, len(txs))
	for i, tx := range txs {
		res, err := d.Replay(f, tx)
		results[i], statuses[i] = res, harnessStatus(res, err)
	}
	return statuses, results
}

// replayEngine replays the history through the O2 comparison engine with no
// samples: fork, apply, and the digests of logs, storage writes and return
// data O2 compares.
func replayEngine(ctx context.Context, d *deploy.Deployment, txs []deploy.Tx) ([]string, error) {
	res, err := replay.Compare(ctx, d, nil, []replay.Sequence{replay.History(txs)}, replay.Options{})
	if err != nil {
		return nil, err
	}
	statuses := make([]string, len(txs))
	for i, o := range res.Ref[0].Outcomes {
		statuses[i] = engineStatus(o.Status)
	}
	return statuses, nil
}

// engineStatus maps the O2 engine's statuses onto the bench's.
func engineStatus(s schemas.CallStatus) string {
	switch s {
	case schemas.StatusSuccess:
		return statusSuccess
	case schemas.StatusRevert:
		return statusFailed
	default:
		return statusRejected
	}
}
