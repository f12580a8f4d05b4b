package solc

import (
	"context"
	"sync"
)

// Tally counts what the compiles run under one context cost in workers:
// the worker processes they started and how young the workers were that
// served them (Manager.Youth's sum, over these compiles only). A caller
// that wants one compile's figures (the compile stage, per sample) puts a
// Tally in the context it compiles with; Manager.Started and Youth count
// every compile.
type Tally struct {
	mu     sync.Mutex
	starts int
	youth  float64
}

type tallyKey struct{}

// WithTally returns ctx with t counting the compiles run under it.
func WithTally(ctx context.Context, t *Tally) context.Context {
	return context.WithValue(ctx, tallyKey{}, t)
}

// Figures are the worker starts and the youth counted so far.
func (t *Tally) Figures() (starts int, youth float64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.starts, t.youth
}

func tallyOf(ctx context.Context) *Tally {
	t, _ := ctx.Value(tallyKey{}).(*Tally)
	return t
}

func (t *Tally) add(starts int, youth float64) {
	if t == nil {
		return
	}
	t.mu.Lock()
	t.starts += starts
	t.youth += youth
	t.mu.Unlock()
}
