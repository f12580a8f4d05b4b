package democorpus

import (
	"math/big"
	"math/rand/v2"
)

// era is the stretch of mainnet a history is dated in: which blocks, how
// their timestamps run and what gas cost then.
type era struct {
	name                  string
	firstBlock, lastBlock uint64
	// anchor dates the first block of a history: a real mainnet block and
	// its timestamp, and the average block time around it.
	anchorBlock, anchorTime uint64
	anchorBlockSeconds      float64
	// blockSeconds and jitter lay out the blocks inside a history: each block
	// is blockSeconds after the previous one plus up to jitter seconds
	// (proof-of-work blocks wandered; post-merge slots are exactly 12 s).
	blockSeconds, jitter uint64
	// timeLimit is the first timestamp a history must not reach (0: none):
	// the 2023 histories stay before Shanghai, as their compiler targets Paris.
	timeLimit uint64
	gasPrice  func(r *rand.Rand) *big.Int
}

var (
	// era2018 holds the 0.4.24 contracts: Byzantium, blocks 5.5M to 6.9M.
	era2018 = era{
		name: "2018", firstBlock: 5_500_000, lastBlock: 6_900_000,
		anchorBlock: 5_008_545, anchorTime: 1_517_445_111, anchorBlockSeconds: 14.57,
		blockSeconds: 13, jitter: 3,
		gasPrice: gasPrice2018,
	}
	// era2023 holds the 0.8.19 contracts: proof of stake, before Shanghai
	// (mainnet activated it at timestamp 1681338455).
	era2023 = era{
		name: "2023", firstBlock: 16_600_000, lastBlock: 16_900_000,
		anchorBlock: 16_308_190, anchorTime: 1_672_531_211, anchorBlockSeconds: 12.12,
		blockSeconds: 12, jitter: 0, timeLimit: 1_681_338_455,
		gasPrice: gasPrice2023,
	}
	// era2023Shanghai holds the 0.8.21 contracts (OpenZeppelin 5, whose
	// compiler targets Shanghai: PUSH0): autumn 2023, after Shanghai
	// (anchored at its first block) and before Cancun (timestamp 1710338135).
	era2023Shanghai = era{
		name: "2023-shanghai", firstBlock: 18_300_000, lastBlock: 18_800_000,
		anchorBlock: 17_034_870, anchorTime: 1_681_338_479, anchorBlockSeconds: 12.13,
		blockSeconds: 12, jitter: 0, timeLimit: 1_710_338_135,
		gasPrice: gasPrice2023,
	}
)

// eraOf is the era a compiler's contracts are dated in.
func eraOf(compiler string) (era, bool) {
	switch compiler {
	case compiler0424:
		return era2018, true
	case compiler0819:
		return era2023, true
	case compiler0821:
		return era2023Shanghai, true
	}
	return era{}, false
}

// timeOf dates a block from the era's anchor.
func (e era) timeOf(block uint64) uint64 {
	return e.anchorTime + uint64(float64(block-e.anchorBlock)*e.anchorBlockSeconds)
}

// gasPrice2018 draws the round gwei prices wallets offered in 2018.
func gasPrice2018(r *rand.Rand) *big.Int {
	gwei := []int64{1, 2, 3, 4, 4, 5, 5, 6, 8, 8, 10, 10, 11, 12, 15, 20, 20, 21, 25, 30, 40, 41, 50}
	return new(big.Int).Mul(big.NewInt(gwei[r.IntN(len(gwei))]), big.NewInt(1e9))
}

// gasPrice2023 draws an effective price after EIP-1559: base fee plus tip,
// to the wei.
func gasPrice2023(r *rand.Rand) *big.Int {
	return big.NewInt(14e9 + r.Int64N(56e9))
}
