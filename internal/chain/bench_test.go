package chain

import (
	"fmt"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/tracing"
)

// BenchmarkCall measures a simple storage-writing call (slot0 += 1).
func BenchmarkCall(b *testing.B) {
	for _, coverage := range []bool{false, true} {
		b.Run(fmt.Sprintf("coverage=%v", coverage), func(b *testing.B) {
			h := New(Options{Coverage: coverage})
			addr := deploy(b, h, counter(), block2023)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				res, err := h.Call(alice, addr, nil, nil, block2023)
				if err != nil || !res.Success {
					b.Fatalf("call: %v %+v", err, res)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "calls/s")
		})
	}
	b.Run("hooks=counting", func(b *testing.B) {
		var n int
		h := New(Options{Hooks: &tracing.Hooks{OnOpcode: func(uint64, byte, uint64, uint64, tracing.OpContext, []byte, int, error) { n++ }}})
		addr := deploy(b, h, counter(), block2023)
		b.ReportAllocs()
		b.ResetTimer()
		for b.Loop() {
			if _, err := h.Call(alice, addr, nil, nil, block2023); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "calls/s")
	})
}

// postDeployment is a state with a few contracts and some storage, as a
// fuzzer or replay would fork it.
func postDeployment(b *testing.B) (*Harness, common.Address) {
	h := New(Options{})
	addr := deploy(b, h, storeLogReturn(), block2023)
	deploy(b, h, counter(), block2023)
	deploy(b, h, brancher(), block2023)
	for i := range 20 { // 20 more senders with balances and nonces
		sender := common.BigToAddress(big.NewInt(int64(0x1000 + i)))
		if _, err := h.Call(sender, addr, word(int64(i+1)), nil, block2023); err != nil {
			b.Fatal(err)
		}
	}
	return h, addr
}

// BenchmarkFork measures copying a post-deployment state.
func BenchmarkFork(b *testing.B) {
	h, _ := postDeployment(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		_ = h.Fork()
	}
}

// BenchmarkForkThenCalls is a fuzzing pattern: fork, then 20 calls.
func BenchmarkForkThenCalls(b *testing.B) {
	h, addr := postDeployment(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		f := h.Fork()
		for i := range 20 {
			if _, err := f.Call(alice, addr, word(int64(i)), nil, block2023); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(20*b.N)/b.Elapsed().Seconds(), "calls/s")
}
