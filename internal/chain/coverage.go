package chain

import (
	"bytes"
	"cmp"
	"maps"
	"slices"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/tracing"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/solbehave/solbehave/internal/bitset"
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
// hash, so coverage of different bytecodes never mixes. It is held as bits
// per bytecode, so collecting it per call and merging it cost a copy and an
// OR of a few words, not a map entry per instruction. The zero value is an
// empty Coverage, ready to Merge into.
type Coverage struct {
	codes map[common.Hash]*codeBits
}

// codeBits is the coverage of one bytecode: program counters reached, JUMPI
// outcomes taken and not taken, one bit per program counter.
type codeBits struct{ pcs, taken, missed bitset.Set }

// Merge adds o to c and reports how many PCs and branch outcomes were new.
func (c *Coverage) Merge(o *Coverage) (newPCs, newBranches int) {
	if o == nil {
		return 0, 0
	}
	if c.codes == nil {
		c.codes = make(map[common.Hash]*codeBits, len(o.codes))
	}
	for h, ob := range o.codes {
		cb := c.codes[h]
		if cb == nil {
			cb = &codeBits{}
			c.codes[h] = cb
		}
		newPCs += cb.pcs.Or(ob.pcs)
		newBranches += cb.taken.Or(ob.taken) + cb.missed.Or(ob.missed)
	}
	return newPCs, newBranches
}

// Instructions is the number of distinct (bytecode, PC) pairs reached.
func (c *Coverage) Instructions() (n int) {
	for _, cb := range c.codes {
		n += cb.pcs.Count()
	}
	return n
}

// BranchOutcomes is the number of distinct JUMPI outcomes seen.
func (c *Coverage) BranchOutcomes() (n int) {
	for _, cb := range c.codes {
		n += cb.taken.Count() + cb.missed.Count()
	}
	return n
}

// HasPC reports whether the instruction was reached.
func (c *Coverage) HasPC(p CodePC) bool {
	cb := c.codes[p.Code]
	return cb != nil && cb.pcs.Has(p.PC)
}

// HasBranch reports whether the JUMPI outcome was seen.
func (c *Coverage) HasBranch(b Branch) bool {
	cb := c.codes[b.Code]
	if cb == nil {
		return false
	}
	if b.Taken {
		return cb.taken.Has(b.PC)
	}
	return cb.missed.Has(b.PC)
}

// PCs lists the instructions reached, by code hash then PC.
func (c *Coverage) PCs() []CodePC {
	var out []CodePC
	for _, h := range c.sortedCodes() {
		c.codes[h].pcs.Each(func(pc uint64) { out = append(out, CodePC{Code: h, PC: pc}) })
	}
	return out
}

// Branches lists the JUMPI outcomes seen, by code hash, PC, not taken first.
func (c *Coverage) Branches() []Branch {
	var out []Branch
	for _, h := range c.sortedCodes() {
		cb := c.codes[h]
		start := len(out)
		cb.missed.Each(func(pc uint64) { out = append(out, Branch{Code: h, PC: pc}) })
		cb.taken.Each(func(pc uint64) { out = append(out, Branch{Code: h, PC: pc, Taken: true}) })
		slices.SortStableFunc(out[start:], func(a, b Branch) int { return cmp.Compare(a.PC, b.PC) })
	}
	return out
}

func (c *Coverage) sortedCodes() []common.Hash {
	hs := slices.Collect(maps.Keys(c.codes))
	slices.SortFunc(hs, func(a, b common.Hash) int { return bytes.Compare(a[:], b[:]) })
	return hs
}

// codeCoverage is what one call reached in one bytecode; the bitsets are kept
// between calls and cleared when collected.
type codeCoverage struct {
	hash               common.Hash
	pcs, taken, missed bitset.Set
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
	cc.pcs.Add(pc)
	if op != byte(vm.JUMPI) {
		return
	}
	if stack := scope.StackData(); len(stack) >= 2 {
		if stack[len(stack)-2].IsZero() {
			cc.missed.Add(pc)
		} else {
			cc.taken.Add(pc)
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
		cc = &codeCoverage{hash: h, pcs: bitset.New(size), taken: bitset.New(size), missed: bitset.New(size)}
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

// collect hands this call's bits over as a Coverage and clears them.
func (c *coverageRecorder) collect() *Coverage {
	cov := &Coverage{codes: make(map[common.Hash]*codeBits, len(c.touched))}
	for _, cc := range c.touched {
		cov.codes[cc.hash] = &codeBits{pcs: cc.pcs.Take(), taken: cc.taken.Take(), missed: cc.missed.Take()}
		cc.touched = false
	}
	c.reset()
	return cov
}
