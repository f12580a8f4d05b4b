package chain

import (
	"math/bits"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/tracing"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/ethereum/go-ethereum/crypto"
)

// CodePC is an instruction of one bytecode, by code hash and program counter.
type CodePC struct {
	Code common.Hash
	PC   uint64
}

// Branch is one outcome of a JUMPI: Taken when the condition was non-zero.
type Branch struct {
	Code  common.Hash
	PC    uint64
	Taken bool
}

// Coverage is the set of instructions reached and JUMPI outcomes seen. Init
// code is keyed by the hash of the creation input, runtime code by its code
// hash, so coverage of different bytecodes never mixes.
type Coverage struct {
	PCs      map[CodePC]struct{}
	Branches map[Branch]struct{}
}

// Merge adds o to c and reports how many PCs and branch outcomes were new.
func (c *Coverage) Merge(o *Coverage) (newPCs, newBranches int) {
	if o == nil {
		return 0, 0
	}
	if c.PCs == nil {
		c.PCs = make(map[CodePC]struct{}, len(o.PCs))
	}
	if c.Branches == nil {
		c.Branches = make(map[Branch]struct{}, len(o.Branches))
	}
	for pc := range o.PCs {
		if _, ok := c.PCs[pc]; !ok {
			c.PCs[pc] = struct{}{}
			newPCs++
		}
	}
	for b := range o.Branches {
		if _, ok := c.Branches[b]; !ok {
			c.Branches[b] = struct{}{}
			newBranches++
		}
	}
	return newPCs, newBranches
}

// bitset is a growable set of program counters.
type bitset []uint64

func newBitset(size int) bitset { return make(bitset, size/64+1) }

func (b *bitset) set(i uint64) {
	w := int(i >> 6)
	if w >= len(*b) {
		*b = append(*b, make(bitset, w-len(*b)+1)...)
	}
	(*b)[w] |= 1 << (i & 63)
}

func (b bitset) count() (n int) {
	for _, w := range b {
		n += bits.OnesCount64(w)
	}
	return n
}

// codeCoverage is what one call reached in one bytecode; the bitsets are kept
// between calls and cleared when collected.
type codeCoverage struct {
	hash               common.Hash
	pcs, taken, missed bitset
	touched            bool
}

// coverageRecorder is the OnOpcode hook behind Options.Coverage. It writes
// bits, not map entries, per executed instruction; the maps of the Result are
// built once per call from the bits.
type coverageRecorder struct {
	codes    map[common.Hash]*codeCoverage
	initcode map[*vm.Contract]*codeCoverage // frames without a code hash, this call
	touched  []*codeCoverage

	lastContract *vm.Contract // frame of the previous opcode
	last         *codeCoverage
}

func newCoverageRecorder() *coverageRecorder {
	return &coverageRecorder{
		codes:    make(map[common.Hash]*codeCoverage),
		initcode: make(map[*vm.Contract]*codeCoverage),
	}
}

func (c *coverageRecorder) onOpcode(pc uint64, op byte, _, _ uint64, scope tracing.OpContext, _ []byte, _ int, _ error) {
	cc := c.codeOf(scope)
	cc.pcs.set(pc)
	if op != byte(vm.JUMPI) {
		return
	}
	if stack := scope.StackData(); len(stack) >= 2 {
		if stack[len(stack)-2].IsZero() {
			cc.missed.set(pc)
		} else {
			cc.taken.set(pc)
		}
	}
}

// codeOf finds the coverage of the executing frame's bytecode. Runtime
// frames carry their code hash; init code is hashed once per frame.
func (c *coverageRecorder) codeOf(scope tracing.OpContext) *codeCoverage {
	sc, ok := scope.(*vm.ScopeContext)
	if !ok || sc.Contract == nil {
		code := scope.ContractCode()
		return c.byHash(crypto.Keccak256Hash(code), len(code))
	}
	if sc.Contract == c.lastContract {
		return c.last
	}
	contract := sc.Contract
	var cc *codeCoverage
	if contract.CodeHash != (common.Hash{}) {
		cc = c.byHash(contract.CodeHash, len(contract.Code))
	} else if cc = c.initcode[contract]; cc == nil {
		cc = c.byHash(crypto.Keccak256Hash(contract.Code), len(contract.Code))
		c.initcode[contract] = cc
	}
	c.lastContract, c.last = contract, cc
	return cc
}

func (c *coverageRecorder) byHash(h common.Hash, codeLen int) *codeCoverage {
	cc := c.codes[h]
	if cc == nil {
		size := codeLen + 1 // execution may run onto the implicit STOP past the end
		cc = &codeCoverage{hash: h, pcs: newBitset(size), taken: newBitset(size), missed: newBitset(size)}
		c.codes[h] = cc
	}
	if !cc.touched {
		cc.touched = true
		c.touched = append(c.touched, cc)
	}
	return cc
}

// begin forgets anything a failed previous call left behind.
func (c *coverageRecorder) begin() {
	if c == nil {
		return
	}
	for _, cc := range c.touched {
		clear(cc.pcs)
		clear(cc.taken)
		clear(cc.missed)
		cc.touched = false
	}
	c.reset()
}

func (c *coverageRecorder) reset() {
	c.touched = c.touched[:0]
	clear(c.initcode)
	c.lastContract, c.last = nil, nil
}

// collect turns this call's bits into a Coverage and clears them.
func (c *coverageRecorder) collect() *Coverage {
	var nPCs, nBranches int
	for _, cc := range c.touched {
		nPCs += cc.pcs.count()
		nBranches += cc.taken.count() + cc.missed.count()
	}
	cov := &Coverage{
		PCs:      make(map[CodePC]struct{}, nPCs),
		Branches: make(map[Branch]struct{}, nBranches),
	}
	for _, cc := range c.touched {
		drainPCs(cc.pcs, cc.hash, cov.PCs)
		drainBranches(cc.taken, cc.hash, true, cov.Branches)
		drainBranches(cc.missed, cc.hash, false, cov.Branches)
		cc.touched = false
	}
	c.reset()
	return cov
}

func drainPCs(b bitset, h common.Hash, into map[CodePC]struct{}) {
	for i, w := range b {
		for ; w != 0; w &= w - 1 {
			into[CodePC{Code: h, PC: uint64(i*64 + bits.TrailingZeros64(w))}] = struct{}{}
		}
		b[i] = 0
	}
}

func drainBranches(b bitset, h common.Hash, taken bool, into map[Branch]struct{}) {
	for i, w := range b {
		for ; w != 0; w &= w - 1 {
			into[Branch{Code: h, PC: uint64(i*64 + bits.TrailingZeros64(w)), Taken: taken}] = struct{}{}
		}
		b[i] = 0
	}
}
