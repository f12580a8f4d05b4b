package bench

import (
	"context"
	"time"

	"github.com/solbehave/solbehave/internal/chain"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/replay"
	"github.com/solbehave/solbehave/schemas"
)

// replayOurs replays txs on a fork of h (the post-deployment state, with h's
// options) through deploy.Replay, keeping every Result as a consumer would.
func replayOurs(d *deploy.Deployment, h *chain.Harness, txs []deploy.Tx) ([]string, []*chain.Result, time.Duration) {
	start := time.Now()
	f := h.Fork()
	results := make([]*chain.Result, len(txs))
	statuses := make([]string, len(txs))
	for i, tx := range txs {
		res, err := d.Replay(f, tx)
		results[i], statuses[i] = res, harnessStatus(res, err)
	}
	return statuses, results, time.Since(start)
}

// replayEngine replays the history through the O2 comparison engine with no
// samples: fork, apply, and the digests of logs, storage writes and return
// data O2 compares.
func replayEngine(ctx context.Context, d *deploy.Deployment, txs []deploy.Tx) ([]string, time.Duration, error) {
	start := time.Now()
	res, err := replay.Compare(ctx, d, nil, []replay.Sequence{replay.History(txs)}, replay.Options{})
	elapsed := time.Since(start)
	if err != nil {
		return nil, elapsed, err
	}
	statuses := make([]string, len(txs))
	for i, o := range res.Ref[0].Outcomes {
		statuses[i] = engineStatus(o.Status)
	}
	return statuses, elapsed, nil
}

// engineStatus maps the O2 engine's statuses onto the bench's.
func engineStatus(s string) string {
	switch s {
	case schemas.StatusSuccess:
		return statusSuccess
	case schemas.StatusRevert:
		return statusFailed
	default:
		return statusRejected
	}
}
