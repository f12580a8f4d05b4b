package o3

import (
	"testing"

	"github.com/solbehave/solbehave/internal/replay"
)

// A probe takes no number of O3's: each call counts the kept calls before
// it, a count past the end is the sequence's kept calls in all, and an
// unknown sequence has none.
func TestSplitNumbersKeptCalls(t *testing.T) {
	sp := splitOf([]replay.Sequence{{ID: 4, Calls: []replay.Call{{}, {Probe: true}, {}, {Probe: true}}}})
	for n, want := range []int{0, 1, 1, 2, 2, 2} {
		if got := sp.keptBefore(4, n); got != want {
			t.Errorf("keptBefore(4, %d) = %d, want %d", n, got, want)
		}
	}
	if got := sp.keptBefore(5, 1); got != 0 {
		t.Errorf("an unknown sequence: %d kept calls, want 0", got)
	}
}
