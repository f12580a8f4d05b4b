package replay

import (
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"github.com/solbehave/solbehave/internal/chain"
	"github.com/solbehave/solbehave/internal/deploy"
)

// Call is one message sent to the deployment under test (its address is the
// deployment's own, so the same Call reaches C* and Ĉ alike).
type Call struct {
	From  common.Address
	Data  []byte
	Value *big.Int // nil = 0
	Gas   uint64   // 0 = chain.DefaultGas
	Block chain.Block
	// TxHash names the call in the rows: the historical transaction, or a
	// label of the caller's choosing for a synthetic call.
	TxHash string
	// Probe: run and observe the call, then discard its effects, so the
	// sequence goes on as if it had not been sent (negative replay).
	Probe bool
}

// Sequence is an ordered list of calls replayed from the post-deployment state.
type Sequence struct {
	ID    int64
	Calls []Call
}

// History is the sequence of a record's transactions after its creation, as
// they were sent: sender, call data, value, recorded gas limit and block.
func History(txs []deploy.Tx) Sequence {
	seq := Sequence{Calls: make([]Call, len(txs))}
	for i, tx := range txs {
		seq.Calls[i] = Call{
			From:   tx.From,
			Data:   tx.Input,
			Value:  tx.Value,
			Gas:    tx.Gas,
			Block:  tx.Block,
			TxHash: tx.Hash,
		}
	}
	return seq
}
