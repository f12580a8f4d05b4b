package vuln

import "testing"

func TestMemTaint(t *testing.T) {
	m := memTaint{}
	m.store32(64, srcCalldata) // aligned: chunk 2
	if got := m.load(64, 32); got != srcCalldata {
		t.Fatalf("aligned load %b", got)
	}
	if got := m.load(0, 64); got != 0 {
		t.Fatalf("untouched chunks tainted: %b", got)
	}
	m.store32(64, 0) // an aligned clean store clears the chunk
	if got := m.load(64, 32); got != 0 {
		t.Fatalf("overwritten chunk still tainted: %b", got)
	}
	m.store32(70, srcTimestamp) // unaligned: chunks 2 and 3
	if m.load(64, 1) != srcTimestamp || m.load(96, 1) != srcTimestamp || m.load(128, 32) != 0 {
		t.Fatalf("unaligned store: %v", m)
	}
	m.fill(200, 100, srcNumber) // partial chunk 6, whole 7 and 8, partial 9
	if m.load(224, 64) != srcNumber || m.load(192, 1)&srcNumber == 0 || m.load(288, 1)&srcNumber == 0 {
		t.Fatalf("fill: %v", m)
	}
	if got := m.load(0, 0); got != 0 {
		t.Fatalf("empty range tainted: %b", got)
	}
	if got := m.load(^uint64(0)-5, 64); got != 0 {
		t.Fatalf("wrapping range tainted: %b", got)
	}
}

func TestOverflowLabelsAreDistinctPerSite(t *testing.T) {
	tr := newTracer([20]byte{}, 10)
	a, b := tr.overflowLabel(10), tr.overflowLabel(20)
	if a == b || a&overflowLabels == 0 || b&overflowLabels == 0 || tr.overflowLabel(10) != a {
		t.Fatalf("labels %b %b", a, b)
	}
	for pc := uint64(100); pc < 200; pc++ {
		if l := tr.overflowLabel(pc); l&overflowLabels == 0 || l&envLabels != 0 {
			t.Fatalf("site %d got label %b", pc, l)
		}
	}
}
