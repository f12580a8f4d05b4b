package cpuclock

import (
	"sync"
	"time"
)

// Meter measures units of work that may run side by side. Between two of its
// events (a unit starting or stopping) the process tree's CPU, and the count
// of whatever else it meters (solc worker starts), are shared equally by the
// units running throughout; with one unit at a time a unit's share is
// exactly its own. The shares of all units add up to what the tree spent
// while any ran.
type Meter struct {
	mu      sync.Mutex
	cpu     func() time.Duration // Tree; tests replace it
	count   func() int64         // nil: nothing else metered
	lastCPU time.Duration
	lastN   int64
	running map[*Span]struct{}
}

// Span is one unit's measurement, from Start to Stop.
type Span struct {
	start time.Time
	cpu   float64 // nanoseconds
	n     float64
}

// Usage is what one unit used.
type Usage struct {
	Wall, CPU time.Duration
	Count     float64 // its share of the metered count
}

// NewMeter meters the process tree's CPU and, when count is not nil, a
// monotone count (read at each event).
func NewMeter(count func() int64) *Meter {
	return &Meter{cpu: Tree, count: count, running: map[*Span]struct{}{}}
}

// Start begins a unit's span.
func (m *Meter) Start() *Span {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.share()
	s := &Span{start: time.Now()}
	m.running[s] = struct{}{}
	return s
}

// Stop ends a span and says what its unit used.
func (m *Meter) Stop(s *Span) Usage {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.share()
	delete(m.running, s)
	return Usage{Wall: time.Since(s.start), CPU: time.Duration(s.cpu), Count: s.n}
}

// share gives what was spent since the last event to the running spans.
func (m *Meter) share() {
	now := m.cpu()
	var n int64
	if m.count != nil {
		n = m.count()
	}
	if k := float64(len(m.running)); k > 0 {
		dc, dn := float64(now-m.lastCPU)/k, float64(n-m.lastN)/k
		for s := range m.running {
			s.cpu += dc
			s.n += dn
		}
	}
	m.lastCPU, m.lastN = now, n
}
