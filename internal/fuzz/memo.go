package fuzz

import (
	"encoding/binary"
	"hash/maphash"
	"slices"

	"github.com/holiman/uint256"
)

// callMemo spares a deployment the calls whose answer it already knows. A
// call that left the deployment's state as it found it (a revert, or a
// success that changed nothing: chain.Result.StateKept) does the same when
// made again on the same state: same outcome, no new coverage, the same
// comparisons. The memo answers it from its first run. Fuzzing repeats such
// calls often (the previous call again, a mutant that comes back to an
// input already tried, the first calls of sequences that start in the same
// block), so a campaign's report is the same with or without the memo,
// only cheaper.
//
// A state is known by how it was reached: a digest of the sequence's block,
// then of each call that may have changed it, in order; two sequences that
// made the same changes in the same block share their memo entries.
// Digests are 128 bits, so a collision among a campaign's few thousand
// states and calls is not a practical concern.
type callMemo struct {
	known map[[2]digest]memoEntry // (state, call) -> what it did; nil: memo off
	state digest                  // the current fork's state
}

// memoEntry is what a memoised call did: its outcome and the comparison
// operands the coverage tracker saw.
type memoEntry struct {
	outcome Outcome
	cmps    []uint256.Int
}

func newCallMemo(on bool) *callMemo {
	m := &callMemo{}
	if on {
		m.known = map[[2]digest]memoEntry{}
	}
	return m
}

// digest is a 128-bit hash: two maphash lanes.
type digest [2]uint64

// memoSeeds seed the lanes; a digest never leaves this process.
var memoSeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

func digestOf(parts ...[]byte) digest {
	var d digest
	var h maphash.Hash
	for lane, seed := range memoSeeds {
		h.SetSeed(seed)
		for _, p := range parts {
			h.Write(p)
		}
		d[lane] = h.Sum64()
	}
	return d
}

// startIn names the state a sequence starts from: the deployment's state
// after creation, in the block of that number and time.
func (m *callMemo) startIn(number, time uint64) {
	var b [17]byte
	b[0] = 0xff // a block never reads like a call
	binary.BigEndian.PutUint64(b[1:9], number)
	binary.BigEndian.PutUint64(b[9:], time)
	m.state = digestOf(b[:])
}

// callDigest names a call: its msg.value and call data (the sender and gas
// are the campaign's, the block the sequence's).
func callDigest(value *uint256.Int, data []byte) digest {
	v := value.Bytes32()
	return digestOf(v[:], data)
}

// lookup returns what the call did on the current state, if the memo knows.
func (m *callMemo) lookup(call digest) (memoEntry, bool) {
	e, ok := m.known[[2]digest{m.state, call}]
	return e, ok
}

// record notes what the call did: a call that kept the state is memoised;
// any other moves the memo to the state it left.
func (m *callMemo) record(call digest, o Outcome, kept bool, cmps []uint256.Int) {
	switch {
	case m.known == nil:
	case kept:
		o.ReturnData = slices.Clone(o.ReturnData)
		m.known[[2]digest{m.state, call}] = memoEntry{outcome: o, cmps: slices.Clone(cmps)}
	default:
		var b [32]byte
		for i, w := range [4]uint64{m.state[0], m.state[1], call[0], call[1]} {
			binary.LittleEndian.PutUint64(b[8*i:], w)
		}
		m.state = digestOf(b[:])
	}
}
