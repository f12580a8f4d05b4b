package deploy

import (
	"encoding/hex"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	esapi "github.com/nanmu42/etherscan-api"

	"github.com/solbehave/solbehave/internal/chain"
)

// Tx is a recorded transaction with its position in the recorded txlist
// (0 is usually the creation).
type Tx struct {
	Index int
	esapi.NormalTx
}

// TxBlock is the block context of a recorded transaction.
func TxBlock(tx esapi.NormalTx) chain.Block {
	return chain.Block{Number: uint64(tx.BlockNumber), Time: uint64(tx.TimeStamp.Time().Unix())}
}

// TxInput decodes a recorded transaction's call data ("0x" is empty).
func TxInput(tx esapi.NormalTx) []byte {
	b, err := hex.DecodeString(strings.TrimPrefix(tx.Input, "0x"))
	if err != nil {
		return nil
	}
	return b
}

// TxValue is the Ether a recorded transaction sent.
func TxValue(tx esapi.NormalTx) *big.Int {
	if tx.Value == nil {
		return new(big.Int)
	}
	return tx.Value.Int()
}

// TxSucceeded says whether the transaction succeeded on mainnet.
func TxSucceeded(tx esapi.NormalTx) bool {
	if tx.IsError != 0 {
		return false
	}
	return tx.TxReceiptStatus != "0"
}

// Replay sends a recorded transaction to the deployment's address (not the
// recorded one, should they differ), with its sender, value, gas limit and block.
func (d *Deployment) Replay(h *chain.Harness, tx Tx) (*chain.Result, error) {
	to := d.Address
	return h.Apply(chain.Msg{From: common.HexToAddress(tx.From), To: &to, Data: TxInput(tx.NormalTx),
		Value: TxValue(tx.NormalTx), Gas: uint64(tx.Gas), Block: TxBlock(tx.NormalTx)})
}
