package chain

import (
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

// TestReleaseKeepsHarnessUsable: after Release the harness builds a new EVM
// on its next call and its state is intact.
func TestReleaseKeepsHarnessUsable(t *testing.T) {
	h := New(Options{Coverage: true})
	addr := deploy(t, h, counter(), block2023)
	h.Release()
	h.Release() // twice is harmless
	for i := 1; i <= 3; i++ {
		res, err := h.Call(alice, addr, nil, nil, block2023)
		if err != nil || !res.Success || res.Coverage == nil {
			t.Fatalf("call %d after Release: %v %+v", i, err, res)
		}
		h.Release()
		if got := h.StorageAt(addr, common.Hash{}); got.Big().Int64() != int64(i) {
			t.Fatalf("slot 0 = %s after %d calls", got.Big(), i)
		}
	}
}
