package stagetest

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math/big"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/solbehave/solbehave/internal/chain"
	"github.com/solbehave/solbehave/internal/democorpus"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/solc"
	"github.com/solbehave/solbehave/pipeline"
)

// The fixture's history: deployed at block multiFileBlock (2023, before
// Shanghai: the recorded evmVersion is paris), one transaction every three
// 12-second blocks, every call with multiFileGas (the creation creationGas).
const (
	multiFileBlock = 16_710_000
	multiFileTime  = 1_677_200_000
	multiFileGas   = 300_000
	creationGas    = 3_000_000
)

var tokens = new(big.Int).Exp(big.NewInt(10), big.NewInt(18), nil)

func amount(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), tokens) }

// multiFileActor is an account of the fixture's history (keys are not
// needed: the harness impersonates every sender).
func multiFileActor(i int) common.Address {
	return common.BytesToAddress(crypto.Keccak256([]byte("solbehave multi-file actor " + strconv.Itoa(i)))[12:])
}

// WriteMultiFileCorpus records the multi-file fixture as a corpus contract
// in dir (Etherscan's layout: getsourcecode.json with the standard-JSON
// source, txlist.json with its history) and returns its contract id. The
// history runs on the real harness with the contract compiled by m from its
// recorded settings: owner mints, transfers, approvals, pauses, burns and a
// change of owner, with the reverts they bring (a stranger minting, a
// paused transfer, an overdrawn allowance or balance, a mint over the cap).
func WriteMultiFileCorpus(t testing.TB, m *solc.Manager, dir string) string {
	t.Helper()
	out, err := m.Compile(context.Background(), MultiFileInput(MultiFileSources()))
	if err != nil {
		t.Fatalf("multi-file fixture: %v", err)
	}
	c, err := out.Contract(MultiFileTarget)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := recordMultiFile(c)
	if err != nil {
		t.Fatalf("multi-file fixture history: %v", err)
	}
	if err := democorpus.WriteCorpus(dir, []*democorpus.Recording{rec}); err != nil {
		t.Fatal(err)
	}
	return rec.ID()
}

// MultiFileEnv writes the multi-file fixture as the one contract of a
// fresh corpus folder (WriteMultiFileCorpus) and returns a run environment
// over it (NewEnv) and the contract's record, read to budget transactions.
func MultiFileEnv(t testing.TB, budget int) (*pipeline.Env, *deploy.Record) {
	t.Helper()
	corpus := filepath.Join(t.TempDir(), "corpus")
	id := WriteMultiFileCorpus(t, engines.Solc(), corpus)
	return NewEnv(t, corpus), LoadRecords(t, corpus, budget, id)[0]
}

type multiFileSession struct {
	h       *chain.Harness
	abi     abi.ABI
	address common.Address
	nonces  map[common.Address]uint64
	txs     []democorpus.TxRecord
	err     error
}

func recordMultiFile(c *solc.Contract) (*democorpus.Recording, error) {
	parsed, err := abi.JSON(strings.NewReader(string(c.ABI)))
	if err != nil {
		return nil, err
	}
	code, err := c.CreationCode(nil)
	if err != nil {
		return nil, err
	}
	args, err := parsed.Pack("", amount(1_000_000))
	if err != nil {
		return nil, err
	}
	s := &multiFileSession{h: chain.New(chain.Options{}), abi: parsed, nonces: map[common.Address]uint64{}}
	owner := multiFileActor(0)
	s.send(owner, nil, append(code, args...), "")
	s.script(owner)
	if s.err != nil {
		return nil, s.err
	}
	return &democorpus.Recording{
		Source: democorpus.SourceRecord{SourceCode: MultiFileStandardJSON(), ABI: string(c.ABI), ContractName: MultiFileTarget,
			CompilerVersion: MultiFileCompiler, OptimizationUsed: "1", Runs: "300", ConstructorArguments: hex.EncodeToString(args),
			EVMVersion: "paris", Library: "", LicenseType: "MIT", Proxy: "0"},
		Txs: s.txs, Address: strings.ToLower(s.address.Hex()),
	}, nil
}

// script is the fixture's history after the creation.
func (s *multiFileSession) script(owner common.Address) {
	u := func(i int) common.Address { return multiFileActor(i) }
	s.call(owner, "mint", u(1), amount(5_000))
	s.call(owner, "mint", u(2), amount(3_000))
	s.call(owner, "transfer", u(3), amount(1_000))
	s.call(u(1), "transfer", u(2), amount(100))
	s.call(u(2), "transfer", u(4), amount(50))
	s.call(u(3), "approve", u(5), amount(500))
	s.call(u(5), "transferFrom", u(3), u(6), amount(200))
	s.call(u(5), "transferFrom", u(3), u(6), amount(400)) // over the allowance
	s.call(u(4), "mint", u(4), amount(1))                 // not the owner
	s.call(owner, "setPaused", true)
	s.call(u(1), "transfer", u(2), amount(1)) // paused
	s.call(owner, "setPaused", false)
	s.call(u(1), "transfer", common.Address{}, big.NewInt(1)) // to the zero address
	s.call(u(6), "burn", amount(50))
	s.call(u(6), "burn", amount(1_000))            // burns what is left
	s.call(u(2), "transfer", u(1), amount(10_000)) // over the balance
	s.call(owner, "mint", u(1), amount(2_000_000)) // over the cap
	for i := range 24 {
		from, to := u(1+i%4), u(1+(i+1)%6)
		s.call(from, "transfer", to, amount(int64(3+i)))
	}
	s.call(owner, "transferOwnership", u(1))
	s.call(owner, "setPaused", true) // no longer the owner
	s.call(u(1), "setPaused", true)
	s.call(u(2), "transfer", u(3), amount(1)) // paused
	s.call(u(1), "setPaused", false)
	s.call(u(1), "mint", u(5), amount(700))
	s.call(u(5), "transfer", u(3), amount(300))
}

func (s *multiFileSession) call(from common.Address, method string, args ...any) {
	if s.err != nil {
		return
	}
	data, err := s.abi.Pack(method, args...)
	if err != nil {
		s.err = fmt.Errorf("%s: %w", method, err)
		return
	}
	to := s.address
	s.send(from, &to, data, method)
}

func (s *multiFileSession) send(from common.Address, to *common.Address, data []byte, method string) {
	if s.err != nil {
		return
	}
	n := uint64(len(s.txs))
	block := chain.Block{Number: multiFileBlock + 3*n, Time: multiFileTime + 36*n}
	gas := uint64(multiFileGas)
	if to == nil {
		s.h.SetNonce(from, 0)
		gas = creationGas
	}
	res, err := s.h.Apply(chain.Msg{From: from, To: to, Data: data, Gas: gas, Block: block})
	if err != nil {
		s.err = err
		return
	}
	tx := democorpus.TxRecord{BlockNumber: u64(block.Number), TimeStamp: u64(block.Time), Hash: txHash(n),
		Nonce: u64(s.nonces[from]), BlockHash: txHash(block.Number + 1<<40), TransactionIndex: "7", From: lower(from),
		Value: "0", Gas: u64(gas), GasPrice: "21000000000", IsError: "0", TxReceiptStatus: "1",
		Input: "0x" + hex.EncodeToString(data), CumulativeGasUsed: u64(res.GasUsed + 500_000), GasUsed: u64(res.GasUsed),
		Confirmations: u64(22_400_000 - block.Number), FunctionName: method}
	s.nonces[from]++
	if len(data) >= 4 {
		tx.MethodID = "0x" + hex.EncodeToString(data[:4])
	}
	if to == nil {
		if !res.Success {
			s.err = fmt.Errorf("constructor reverted: %s", res.RevertReason)
			return
		}
		s.address = res.ContractAddress
		tx.ContractAddress, tx.MethodID = lower(res.ContractAddress), "0x"
	} else {
		tx.To = lower(*to)
	}
	if !res.Success {
		tx.IsError, tx.TxReceiptStatus = "1", "0"
	}
	s.txs = append(s.txs, tx)
}

func txHash(n uint64) string {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], n)
	return crypto.Keccak256Hash([]byte("multi-file"), b[:]).Hex()
}

func u64(v uint64) string           { return strconv.FormatUint(v, 10) }
func lower(a common.Address) string { return strings.ToLower(a.Hex()) }
