package vuln

// label is a set of taint sources, one bit each. Bits from overflowBit0 up
// name individual overflowing ADD/SUB/MUL sites (see tracer.overflowLabel),
// so the arithmetic oracle can tell which overflow reached storage.
type label uint64

const (
	srcTimestamp   label = 1 << iota // TIMESTAMP
	srcNumber                        // NUMBER
	srcCalldata                      // CALLDATALOAD, CALLDATACOPY: transaction input
	srcStorage                       // any SLOAD: data, not a constant
	srcCallValue                     // CALLVALUE
	srcCaller                        // CALLER, ORIGIN
	srcExternal                      // balances, return data, other environment
	srcDeployBlock                   // a slot the constructor derived from its block (extension deploy-block-state)

	overflowBit0 = 8 // first overflow-site bit; bits 8..63
)

const (
	// envLabels is block state as the oracles read it; liveEnv the block
	// of the transaction itself, which a wait can move (timeHints).
	envLabels      = srcTimestamp | srcNumber | srcDeployBlock
	liveEnv        = srcTimestamp | srcNumber
	overflowLabels = ^label(0) &^ (1<<overflowBit0 - 1)
)

// memTaint is the taint of a frame's memory in 32-byte chunks (chunk i
// covers bytes [32i, 32i+32)). Unaligned stores mark both chunks they
// touch: an over-approximation that never loses a flow.
type memTaint map[uint64]label

// maxChunks bounds a range walk; a larger range folds every tainted chunk.
const maxChunks = 4096

func chunkRange(off, size uint64) (first, last uint64, ok bool) {
	if size == 0 || off+size < off {
		return 0, 0, false
	}
	return off / 32, (off + size - 1) / 32, true
}

// load is the taint of [off, off+size).
func (m memTaint) load(off, size uint64) label {
	first, last, ok := chunkRange(off, size)
	if !ok || len(m) == 0 {
		return 0
	}
	var l label
	if last-first > maxChunks {
		for _, v := range m {
			l |= v
		}
		return l
	}
	for c := first; c <= last; c++ {
		l |= m[c]
	}
	return l
}

// store32 is MSTORE: an aligned word replaces its chunk's taint.
func (m memTaint) store32(off uint64, l label) {
	if off%32 == 0 {
		m.set(off/32, l)
		return
	}
	m.union(off/32, l)
	m.union(off/32+1, l)
}

// fill sets the taint of [off, off+size): whole chunks are replaced, the
// partial chunks at either end get the union.
func (m memTaint) fill(off, size uint64, l label) {
	first, last, ok := chunkRange(off, size)
	if !ok {
		return
	}
	if last-first > maxChunks {
		last = first + maxChunks
	}
	for c := first; c <= last; c++ {
		whole := c*32 >= off && c*32+32 <= off+size
		if whole {
			m.set(c, l)
		} else {
			m.union(c, l)
		}
	}
}

func (m memTaint) set(c uint64, l label) {
	if l == 0 {
		delete(m, c)
		return
	}
	m[c] = l
}

func (m memTaint) union(c uint64, l label) {
	if l != 0 {
		m[c] |= l
	}
}
