package crawl

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"sort"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// ChainReader is the part of a JSON-RPC client discovery needs; go-ethereum's
// ethclient.Client and the simulated backend's client both satisfy it.
type ChainReader interface {
	BlockByNumber(ctx context.Context, number *big.Int) (*types.Block, error)
	CodeAt(ctx context.Context, account common.Address, blockNumber *big.Int) ([]byte, error)
}

// DiscoverOptions choose the sampled blocks.
type DiscoverOptions struct {
	FromBlock uint64
	Blocks    int // how many blocks to sample
	Stride    int // distance between sampled blocks
	Batch     int // blocks fetched concurrently
	Top       int // targets kept
}

// Target is a contract called in the sampled blocks, with how often.
type Target struct {
	Address common.Address
	Txs     int
}

// Discover samples blocks in concurrent batches, counts the transactions sent
// to each address, keeps the addresses that hold code, and ranks them by
// frequency (ties by address, so the ranking is deterministic).
func Discover(ctx context.Context, rpc ChainReader, o DiscoverOptions) ([]Target, error) {
	counts, err := countTargets(ctx, rpc, o)
	if err != nil {
		return nil, err
	}
	var ranked []Target
	for addr, n := range counts {
		ranked = append(ranked, Target{addr, n})
	}
	sort.Slice(ranked, func(i, j int) bool {
		if ranked[i].Txs != ranked[j].Txs {
			return ranked[i].Txs > ranked[j].Txs
		}
		return ranked[i].Address.Hex() < ranked[j].Address.Hex()
	})
	var out []Target
	for _, t := range ranked {
		if len(out) == o.Top {
			break
		}
		code, err := rpc.CodeAt(ctx, t.Address, nil)
		if err != nil {
			return nil, fmt.Errorf("code of %s: %w", t.Address.Hex(), err)
		}
		if len(code) > 0 {
			out = append(out, t)
		}
	}
	return out, nil
}

func countTargets(ctx context.Context, rpc ChainReader, o DiscoverOptions) (map[common.Address]int, error) {
	stride := uint64(max(1, o.Stride))
	counts := map[common.Address]int{}
	var mu sync.Mutex
	// Batch blocks are fetched at once; the first error stops the count.
	var g errgroup.Group
	g.SetLimit(max(1, o.Batch))
	for i := 0; i < o.Blocks; i++ {
		g.Go(func() error {
			n := o.FromBlock + uint64(i)*stride
			b, err := rpc.BlockByNumber(ctx, new(big.Int).SetUint64(n))
			if errors.Is(err, ethereum.NotFound) {
				return nil // past the head: nothing to count
			}
			if err != nil {
				return fmt.Errorf("block %d: %w", n, err)
			}
			mu.Lock()
			defer mu.Unlock()
			for _, tx := range b.Transactions() {
				if tx.To() != nil {
					counts[*tx.To()]++
				}
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return counts, nil
}
