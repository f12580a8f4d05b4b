package deploy

import (
	"encoding/hex"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	esapi "github.com/nanmu42/etherscan-api"

	"github.com/solbehave/solbehave/internal/chain"
)

// Tx is a recorded transaction as the project uses it: decoded once from
// Etherscan's wire form (esapi.NormalTx) when a record is loaded, so no
// stage parses hex or timestamps again.
type Tx struct {
	Index     int    // position in the recorded txlist (0 is usually the creation)
	Hash      string // as recorded
	From      common.Address
	Sender    string // From as recorded (lower-case hex), the form rows keep
	Nonce     uint64
	Input     []byte // nil when the recorded input is not hex
	Value     *big.Int
	Gas       uint64 // the recorded gas limit
	GasUsed   uint64
	Block     chain.Block
	Succeeded bool // on mainnet
}

// newTx converts a recorded transaction at position index of its txlist.
func newTx(index int, w esapi.NormalTx) Tx {
	tx := Tx{Index: index, Hash: w.Hash, From: common.HexToAddress(w.From), Sender: w.From,
		Nonce: uint64(w.Nonce), Input: decodeHex(w.Input), Value: new(big.Int),
		Gas: uint64(w.Gas), GasUsed: uint64(w.GasUsed),
		Block:     chain.Block{Number: uint64(w.BlockNumber), Time: uint64(w.TimeStamp.Time().Unix())},
		Succeeded: w.IsError == 0 && w.TxReceiptStatus != "0"}
	if w.Value != nil {
		tx.Value = w.Value.Int()
	}
	return tx
}

func decodeHex(s string) []byte {
	b, err := hex.DecodeString(strings.TrimPrefix(s, "0x"))
	if err != nil {
		return nil
	}
	return b
}

// Msg is the transaction sent to address to (not the recorded one, should
// they differ), with its sender, value, gas limit and block.
func (tx Tx) Msg(to common.Address) chain.Msg {
	return chain.Msg{From: tx.From, To: &to, Data: tx.Input, Value: tx.Value, Gas: tx.Gas, Block: tx.Block}
}

// Replay sends a recorded transaction to the deployment's address.
func (d *Deployment) Replay(h *chain.Harness, tx Tx) (*chain.Result, error) {
	return h.Apply(tx.Msg(d.Address))
}
