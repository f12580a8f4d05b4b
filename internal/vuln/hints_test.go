package vuln

import (
	"testing"

	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/holiman/uint256"
)

// timeHints turns a guard comparing the block's time or number with a
// value it has not reached into the wait that passes it; a guard already
// passed, one on both sources, or one too far away gives none.
func TestTimeHints(t *testing.T) {
	cmp := func(env, other uint64, envFirst bool, src label) event {
		e := event{kind: evCmp, op: vm.LT, taint: src, envFirst: envFirst}
		e.a, e.b = *uint256.NewInt(other), *uint256.NewInt(env)
		if envFirst {
			e.a, e.b = e.b, e.a
		}
		return e
	}
	run := &seedRun{txs: []txRun{
		{trace: &txTrace{events: []event{cmp(1_000, 1_600, true, srcTimestamp)}}},       // now < unlock: wait 601 s
		{trace: &txTrace{events: []event{cmp(7_500_000, 7_505_000, false, srcNumber)}}}, // number >= release: 5,001 blocks
		{trace: &txTrace{events: []event{cmp(2_000, 1_000, true, srcTimestamp)}}},       // already past
		{trace: &txTrace{events: []event{cmp(1, 1<<40, true, srcTimestamp)}}},           // centuries away
		{trace: &txTrace{events: []event{cmp(1, 5, true, srcTimestamp|srcNumber)}}},     // both sources
	}}
	got := timeHints(run)
	want := []gapHint{{tx: 0, seconds: 601}, {tx: 1, blocks: 5_001}}
	if len(got) != len(want) {
		t.Fatalf("hints %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("hint %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}
