package chain

import (
	"sync"
	"sync/atomic"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/vm"
)

// jumpDestAnalyses shares JUMPDEST analyses between every EVM of the process:
// an analysis depends on the code alone (it is keyed by code hash), and forks
// would otherwise redo it for each contract on their first call.
var jumpDestAnalyses = &sharedJumpDests{}

// maxSharedAnalyses bounds the cache; beyond it each EVM keeps its own.
const maxSharedAnalyses = 1 << 14

type sharedJumpDests struct {
	m sync.Map // common.Hash -> vm.BitVec
	n atomic.Int64
}

func (c *sharedJumpDests) Load(h common.Hash) (vm.BitVec, bool) {
	v, ok := c.m.Load(h)
	if !ok {
		return nil, false
	}
	return v.(vm.BitVec), true
}

func (c *sharedJumpDests) Store(h common.Hash, v vm.BitVec) {
	if c.n.Load() >= maxSharedAnalyses {
		return
	}
	if _, loaded := c.m.LoadOrStore(h, v); !loaded {
		c.n.Add(1)
	}
}
