package fuzz

import (
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/tracing"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/holiman/uint256"

	"github.com/solbehave/solbehave/internal/bitset"
	"github.com/solbehave/solbehave/internal/chain"
)

// tracker is one deployment's coverage over a whole campaign: the program
// counters reached and the JUMPI outcomes seen, per bytecode (keyed by code
// hash, init code by the hash of its code). It is an OnOpcode hook that
// sets bits in the campaign-wide sets directly and raises fresh when a bit
// was new, so telling whether a call reached new coverage costs nothing
// after the call.
//
// It replaces chain.Options{Coverage: true} here because that option hands
// each call's bits over as a fresh Result.Coverage which the fuzzer would
// then merge, and because the fuzzer also wants the comparison operands:
// side by side (BenchmarkHarnessPairs) the tracker is 10-20% faster.
type tracker struct {
	codes map[common.Hash]*codeBits
	fresh bool // set by the hook when a call reaches a new PC or branch outcome
	// cmps are the operands of the comparisons the last call made (at most
	// maxCmps), hints for the generator.
	cmps []uint256.Int

	lastContract *vm.Contract // frame of the previous opcode
	last         *codeBits
}

// codeBits is the coverage of one bytecode.
type codeBits struct {
	pcs, taken, missed bitset.Set
}

func newTracker() *tracker { return &tracker{codes: map[common.Hash]*codeBits{}} }

// options are the harness options that run the hook.
func (t *tracker) options() chain.Options {
	return chain.Options{Hooks: &tracing.Hooks{OnOpcode: t.onOpcode}}
}

// maxCmps bounds the comparison operands kept per call.
const maxCmps = 64

// begin readies the tracker for the next call.
func (t *tracker) begin() {
	t.fresh = false
	t.cmps = t.cmps[:0]
	t.lastContract, t.last = nil, nil // frames do not outlive a call
}

func (t *tracker) onOpcode(pc uint64, op byte, _, _ uint64, scope tracing.OpContext, _ []byte, _ int, _ error) {
	cb := t.codeOf(scope)
	if cb.pcs.Add(pc) {
		t.fresh = true
	}
	switch vm.OpCode(op) {
	case vm.JUMPI:
	case vm.LT, vm.GT, vm.SLT, vm.SGT, vm.EQ:
		if stack := scope.StackData(); len(stack) >= 2 && len(t.cmps) < maxCmps {
			t.cmps = append(t.cmps, stack[len(stack)-1], stack[len(stack)-2])
		}
		return
	default:
		return
	}
	stack := scope.StackData()
	if len(stack) < 2 {
		return
	}
	outcome := &cb.taken
	if stack[len(stack)-2].IsZero() {
		outcome = &cb.missed
	}
	if outcome.Add(pc) {
		t.fresh = true
	}
}

// codeOf finds the executing frame's bytecode: runtime frames carry their
// code hash, init code is hashed when its frame starts running.
func (t *tracker) codeOf(scope tracing.OpContext) *codeBits {
	sc, ok := scope.(*vm.ScopeContext)
	if !ok || sc.Contract == nil {
		return t.byHash(crypto.Keccak256Hash(scope.ContractCode()), len(scope.ContractCode()))
	}
	if sc.Contract == t.lastContract {
		return t.last
	}
	c := sc.Contract
	h := c.CodeHash
	if h == (common.Hash{}) {
		h = crypto.Keccak256Hash(c.Code)
	}
	t.lastContract, t.last = c, t.byHash(h, len(c.Code))
	return t.last
}

func (t *tracker) byHash(h common.Hash, codeLen int) *codeBits {
	cb := t.codes[h]
	if cb == nil {
		size := codeLen + 1 // execution may run onto the implicit STOP past the end
		cb = &codeBits{pcs: bitset.New(size), taken: bitset.New(size), missed: bitset.New(size)}
		t.codes[h] = cb
	}
	return cb
}

func (t *tracker) stats() CoverageStats {
	var s CoverageStats
	for _, cb := range t.codes {
		s.Instructions += cb.pcs.Count()
		s.Branches += cb.taken.Count() + cb.missed.Count()
	}
	return s
}
