package solc

import (
	"context"
	"errors"
	"sync"
	"time"
)

// ErrClosed is returned by Compile after Close.
var ErrClosed = errors.New("solc: manager closed")

// maxUsesPerWorker retires a worker after this many compiles: old soljson
// builds leak heap between compiles.
const maxUsesPerWorker = 500

// pool holds at most max live workers. A request takes an idle worker of
// its compiler, else starts one if there is room, else evicts the least
// recently used idle worker, else waits for one to come back.
type pool struct {
	mu      sync.Mutex
	max     int
	workers []*worker
	wake    chan struct{} // closed (and replaced) whenever a worker is released or removed
	closed  bool
}

func newPool(max int) *pool {
	return &pool{max: max, wake: make(chan struct{})}
}

// acquire returns a worker for key, reserved for the caller until release.
func (p *pool) acquire(ctx context.Context, key string, start func(context.Context) (*worker, error)) (*worker, error) {
	for {
		p.mu.Lock()
		if p.closed {
			p.mu.Unlock()
			return nil, ErrClosed
		}
		p.dropDead()
		if w := p.idle(key); w != nil {
			w.busy = true
			p.mu.Unlock()
			return w, nil
		}
		if len(p.workers) < p.max {
			slot := &worker{key: key, busy: true} // placeholder holding the slot while starting
			p.workers = append(p.workers, slot)
			p.mu.Unlock()
			return p.fill(ctx, slot, start)
		}
		if victim := p.lruIdle(); victim != nil {
			p.remove(victim)
			p.mu.Unlock()
			victim.kill()
			continue
		}
		wake := p.wake
		p.mu.Unlock()
		select {
		case <-wake:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

func (p *pool) fill(ctx context.Context, slot *worker, start func(context.Context) (*worker, error)) (*worker, error) {
	w, err := start(ctx)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.remove(slot)
	if err != nil {
		return nil, err
	}
	if p.closed {
		w.kill()
		return nil, ErrClosed
	}
	w.busy = true
	p.workers = append(p.workers, w)
	return w, nil
}

// release gives a worker back; a broken or worn-out one is discarded.
func (p *pool) release(w *worker, broken bool) {
	p.mu.Lock()
	w.busy = false
	w.lastUsed = time.Now()
	w.uses++
	discard := broken || !w.alive() || w.uses >= maxUsesPerWorker || p.closed
	if discard {
		p.remove(w)
	}
	p.signal()
	p.mu.Unlock()
	if discard {
		w.kill()
	}
}

func (p *pool) idle(key string) *worker {
	for _, w := range p.workers {
		if w.key == key && !w.busy && w.cmd != nil {
			return w
		}
	}
	return nil
}

func (p *pool) lruIdle() *worker {
	var lru *worker
	for _, w := range p.workers {
		if !w.busy && w.cmd != nil && (lru == nil || w.lastUsed.Before(lru.lastUsed)) {
			lru = w
		}
	}
	return lru
}

// dropDead forgets idle workers whose process has died (killed, crashed).
func (p *pool) dropDead() {
	for _, w := range append([]*worker(nil), p.workers...) {
		if !w.busy && w.cmd != nil && !w.alive() {
			p.remove(w)
		}
	}
}

func (p *pool) remove(w *worker) {
	for i, x := range p.workers {
		if x == w {
			p.workers = append(p.workers[:i], p.workers[i+1:]...)
			p.signal()
			return
		}
	}
}

func (p *pool) signal() {
	close(p.wake)
	p.wake = make(chan struct{})
}

// close kills every worker, busy or not; requests in flight fail.
func (p *pool) close() {
	p.mu.Lock()
	p.closed = true
	ws := p.workers
	p.workers = nil
	p.signal()
	p.mu.Unlock()
	for _, w := range ws {
		if w.cmd != nil {
			w.kill()
		}
	}
}

// size reports the live workers (for tests and stats).
func (p *pool) size() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.workers)
}
