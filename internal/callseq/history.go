package callseq

import (
	"fmt"
	"math/big"
	"sort"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/solbehave/solbehave/internal/chain"
	"github.com/solbehave/solbehave/internal/deploy"
)

// recorded is one distinct (call data, value) of the history.
type recorded struct {
	data      []byte
	value     *big.Int
	succeeded bool
}

// historyTuples groups the history's distinct calls by selector ("" for
// plain transfers and fallback calls), successful ones first, each group in
// order of first appearance.
func historyTuples(a abi.ABI, txs []deploy.Tx) map[string][]recorded {
	seen := map[string]bool{}
	out := map[string][]recorded{}
	for _, pass := range []bool{true, false} {
		for _, tx := range txs {
			ok := tx.Succeeded
			if ok != pass {
				continue
			}
			data, value := tx.Input, tx.Value
			key := string(data) + "\x00" + value.String()
			if seen[key] {
				continue
			}
			seen[key] = true
			sel := selectorKey(a, data)
			out[sel] = append(out[sel], recorded{data: data, value: value, succeeded: ok})
		}
	}
	return out
}

// selectorKey is the 4-byte selector of a call to a known function, else "".
func selectorKey(a abi.ABI, data []byte) string {
	if len(data) < 4 {
		return ""
	}
	if _, err := a.MethodById(data[:4]); err != nil {
		return ""
	}
	return string(data[:4])
}

// users picks the accounts `any` events are sent from: the most frequent
// senders of the history other than the deployer and the contract, ties in
// order of first appearance, padded with fixed synthetic accounts.
func users(n int, txs []deploy.Tx, deployer, contract common.Address) []common.Address {
	count, first := map[common.Address]int{}, map[common.Address]int{}
	for i, tx := range txs {
		a := tx.From
		if a == deployer || a == contract || a == (common.Address{}) {
			continue
		}
		if _, ok := first[a]; !ok {
			first[a] = i
		}
		count[a]++
	}
	var senders []common.Address
	for a := range count {
		senders = append(senders, a)
	}
	sort.Slice(senders, func(i, j int) bool {
		if count[senders[i]] != count[senders[j]] {
			return count[senders[i]] > count[senders[j]]
		}
		return first[senders[i]] < first[senders[j]]
	})
	if len(senders) > n {
		senders = senders[:n]
	}
	for i := 0; len(senders) < n; i++ {
		a := SyntheticUser(i)
		if a != deployer && a != contract && !containsAddress(senders, a) {
			senders = append(senders, a)
		}
	}
	return senders
}

// SyntheticUser is the i-th fixed account used when the history has too
// few senders.
func SyntheticUser(i int) common.Address {
	return common.BytesToAddress(crypto.Keccak256([]byte(fmt.Sprintf("solbehave/sequence/user/%d", i)))[12:])
}

func containsAddress(list []common.Address, a common.Address) bool {
	for _, b := range list {
		if a == b {
			return true
		}
	}
	return false
}

// pace is how fast blocks go by between two steps.
type pace struct {
	blocks       uint64 // mean blocks per step
	secsPerBlock uint64
}

// paceOf is the clock of a run: one block of 12 seconds per call (the paper
// says nothing of time), or with HistoryPace the history's pace; BlockGap,
// when set, is the mean blocks per call either way.
func paceOf(cfg Config, created chain.Block, txs []deploy.Tx) pace {
	p := pace{blocks: 1, secsPerBlock: 12}
	if cfg.HistoryPace {
		p = historyPace(created, txs)
	}
	if cfg.BlockGap > 0 {
		p.blocks = cfg.BlockGap
	}
	return p
}

// historyPace is the history's mean blocks per transaction and seconds
// per block (1 block of 12 s without a history to learn from).
func historyPace(created chain.Block, txs []deploy.Tx) pace {
	p := pace{blocks: 1, secsPerBlock: 12}
	if len(txs) == 0 {
		return p
	}
	last := txs[len(txs)-1].Block
	if last.Number <= created.Number {
		return p
	}
	span := last.Number - created.Number
	p.blocks = max(1, span/uint64(len(txs)))
	if last.Time > created.Time {
		p.secsPerBlock = max(1, (last.Time-created.Time)/span)
	}
	return p
}

func lowerHex(a common.Address) string { return strings.ToLower(a.Hex()) }
