package chain

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/vm"

	"github.com/solbehave/solbehave/internal/evmasm"
)

// sendTo calls to with value wei and no data, ignores whether that worked,
// and stops.
func sendTo(to common.Address, value uint64) []byte {
	return evmasm.New().
		Push(0).Push(0).Push(0).Push(0).Push(value).PushBytes(to[:]...).Op(vm.GAS, vm.CALL, vm.POP, vm.STOP).
		MustAssemble()
}

// creator creates an empty contract and stops.
func creator() []byte {
	return evmasm.New().Push(0).Push(0).Push(0).Op(vm.CREATE, vm.POP, vm.STOP).MustAssemble()
}

// TestStateKept: Result.StateKept is true exactly when a call left every
// account as it found it, the sender's nonce aside; each case checks it
// against a second look at the state where one can tell.
func TestStateKept(t *testing.T) {
	stop := evmasm.New().Op(vm.STOP).MustAssemble()
	word := common.BigToHash(big.NewInt(5)).Bytes()
	rich := common.HexToAddress("0x3000000000000000000000000000000000000003")
	empty := common.HexToAddress("0x4000000000000000000000000000000000000004")
	type call struct {
		from  common.Address
		data  []byte
		value int64
		kept  bool
	}
	cases := []struct {
		name    string
		runtime func(h *Harness) []byte
		balance int64 // the contract's, before the calls
		calls   []call
	}{
		{"a storage write, then none", func(*Harness) []byte { return storeLogReturn() }, 0,
			[]call{{alice, word, 0, false}, {alice, word, 0, true}}}, // the second writes the same word and logs: no change
		{"a revert", func(*Harness) []byte { return reverter([]byte("no")) }, 0,
			[]call{{alice, nil, 0, true}}},
		{"value from a sender topped up for it", func(*Harness) []byte { return reverter(nil) }, 0,
			[]call{{alice, nil, 1, false}}}, // alice had nothing: the top-up stays
		{"value from a funded sender", func(*Harness) []byte { return stop }, 0,
			[]call{{rich, nil, 1, false}, {rich, nil, 0, true}}},
		{"value sent on by the contract", func(*Harness) []byte { return sendTo(alice, 1) }, 10,
			[]call{{alice, nil, 0, false}}},
		{"value sent to a reverting frame", func(h *Harness) []byte {
			return sendTo(deploy(t, h, reverter(nil), block2020), 1)
		}, 10, []call{{alice, nil, 0, true}}}, // the frame's revert undoes the transfer
		{"a creation", func(*Harness) []byte { return creator() }, 0,
			[]call{{alice, nil, 0, false}}},
		{"a touch that deletes an empty account", func(h *Harness) []byte {
			// An empty account left from before EIP-161, which deletes
			// empty accounts a transaction touches.
			h.SetBalance(empty, new(big.Int))
			if _, err := h.Call(alice, empty, nil, nil, Block{Number: 2_000_000, Time: 1_470_000_000}); err != nil || !h.inner.Exist(empty) {
				t.Fatalf("no empty account to touch: %v", err)
			}
			return sendTo(empty, 0)
		}, 0, []call{{alice, nil, 0, false}, {alice, nil, 0, true}}}, // the first deleted it: the second touches nothing
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := New(Options{})
			h.SetBalance(rich, big.NewInt(1e18))
			addr := deploy(t, h, c.runtime(h), block2020)
			h.SetBalance(addr, big.NewInt(c.balance))
			for i, k := range c.calls {
				res, err := h.Call(k.from, addr, k.data, big.NewInt(k.value), block2020)
				if err != nil {
					t.Fatalf("call %d: %v", i, err)
				}
				if c.name == "a touch that deletes an empty account" && i == 0 && h.inner.Exist(empty) {
					t.Error("the touched empty account was not deleted: the case tests nothing")
				}
				if res.StateKept != k.kept {
					t.Errorf("call %d: StateKept = %v, want %v (success %v, writes %v)", i, res.StateKept, k.kept, res.Success, res.StorageWrites)
				}
			}
		})
	}
}
