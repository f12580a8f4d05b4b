package cpuclock

import (
	"sync"
	"time"
)

// Meter measures units of work that may run side by side. Between two of its
// events (a unit starting or stopping) the process tree's CPU, and each
// count it meters (solc worker starts, how young the workers were), are
// shared equally by the units running throughout; with one unit at a time a
// unit's share is exactly its own. The shares of all units add up to what
// the tree spent while any ran.
type Meter struct {
	mu      sync.Mutex
	cpu     func() time.Duration // Tree; tests replace it
	counts  []func() float64     // monotone counts, read at each event
	lastCPU time.Duration
	lastN   []float64
	running map[*Span]struct{}
}

// Span is one unit's measurement, from Start to Stop.
type Span struct {
	start time.Time
	cpu   float64 // nanoseconds
	n     []float64
}

// Usage is what one unit used.
type Usage struct {
	Wall, CPU time.Duration
	Counts    []float64 // its share of each metered count, in NewMeter's order
}

// NewMeter meters the process tree's CPU and each of counts (monotone:
// they only grow).
func NewMeter(counts ...func() float64) *Meter {
	return &Meter{cpu: Tree, counts: counts, lastN: make([]float64, len(counts)), running: map[*Span]struct{}{}}
}

// Start begins a unit's span.
func (m *Meter) Start() *Span {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.share()
	s := &Span{start: time.Now(), n: make([]float64, len(m.counts))}
	m.running[s] = struct{}{}
	return s
}

// Stop ends a span and says what its unit used.
func (m *Meter) Stop(s *Span) Usage {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.share()
	delete(m.running, s)
	return Usage{Wall: time.Since(s.start), CPU: time.Duration(s.cpu), Counts: s.n}
}

// share gives what was spent since the last event to the running spans.
func (m *Meter) share() {
	now := m.cpu()
	k := float64(len(m.running))
	if k > 0 {
		dc := float64(now-m.lastCPU) / k
		for s := range m.running {
			s.cpu += dc
		}
	}
	for i, count := range m.counts {
		n := count()
		if k > 0 {
			for s := range m.running {
				s.n[i] += (n - m.lastN[i]) / k
			}
		}
		m.lastN[i] = n
	}
	m.lastCPU = now
}
