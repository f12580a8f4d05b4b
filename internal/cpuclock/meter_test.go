package cpuclock

import (
	"testing"
	"time"
)

// Two units side by side share what the tree spent while both ran; the
// shares add up to the whole.
func TestMeterSharesOverlap(t *testing.T) {
	var clock time.Duration
	var starts, youth float64
	m := NewMeter(func() float64 { return starts }, func() float64 { return youth })
	m.cpu = func() time.Duration { return clock }

	a := m.Start()
	clock += 4 * time.Second // a alone
	starts++
	b := m.Start()
	clock += 2 * time.Second // a and b
	starts += 2
	youth += 0.5
	ua := m.Stop(a)
	clock += 3 * time.Second // b alone
	ub := m.Stop(b)
	clock += 10 * time.Second // nobody: nobody's
	c := m.Start()
	uc := m.Stop(c)

	if ua.CPU != 5*time.Second || ub.CPU != 4*time.Second || uc.CPU != 0 {
		t.Fatalf("cpu a %s b %s c %s; want 5s, 4s, 0", ua.CPU, ub.CPU, uc.CPU)
	}
	if ua.Counts[0] != 2 || ub.Counts[0] != 1 || ua.Counts[1] != 0.25 || ub.Counts[1] != 0.25 || len(uc.Counts) != 2 {
		t.Fatalf("counts a %v b %v c %v; want [2 0.25], [1 0.25], two zeros", ua.Counts, ub.Counts, uc.Counts)
	}
}

// The real clock: a unit that burns CPU is charged at least most of it.
func TestMeterChargesBusyUnit(t *testing.T) {
	m := NewMeter()
	s := m.Start()
	deadline := time.Now().Add(150 * time.Millisecond)
	x := 0
	for time.Now().Before(deadline) {
		x++
	}
	u := m.Stop(s)
	if u.CPU < 50*time.Millisecond || u.Wall < 150*time.Millisecond {
		t.Fatalf("busy 150 ms: charged cpu %s wall %s (x=%d)", u.CPU, u.Wall, x)
	}
}
