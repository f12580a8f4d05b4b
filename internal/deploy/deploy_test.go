package deploy

import (
	"context"
	"errors"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	esapi "github.com/nanmu42/etherscan-api"

	"github.com/solbehave/solbehave/internal/chain"
	"github.com/solbehave/solbehave/internal/etherscan"
	"github.com/solbehave/solbehave/internal/solc"
)

const demoCorpus = "../../data/corpus/demo"

func loadVault(t *testing.T) *Record { return loadDemo(t, "Vault") }

// loadDemo reads a demo contract with its first 200 transactions.
func loadDemo(t *testing.T, name string) *Record {
	t.Helper()
	c, err := OpenCorpus(demoCorpus)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range c.Entries {
		if e.Name == name {
			rec, err := c.Load(e, 200)
			if err != nil {
				t.Fatal(err)
			}
			return rec
		}
	}
	t.Fatalf("the demo corpus has no %s", name)
	return nil
}

// figure1Withdraw is the regenerated withdraw of the paper's Figure 1: a
// silent no-op before initialisation, and no balance check.
const figure1Withdraw = `function withdraw(uint256 amount) public {
        if (!initialized) return;
        balance -= amount;
    }`

func compile(t *testing.T, m *solc.Manager, rec *Record, files map[string]string) *solc.Output {
	t.Helper()
	out, err := m.Compile(context.Background(), rec.CompileInput(files))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestFigure1Vault: after initialize, an over-withdrawal reverts on the
// original and succeeds on the regenerated withdraw that lacks the balance
// check; status and storage differ.
func TestFigure1Vault(t *testing.T) {
	rec := loadVault(t)
	m := solc.NewManager(solc.Options{})
	defer m.Close()
	origOut := compile(t, m, rec, nil)
	var file, src string
	for f, s := range rec.Files.Files {
		file, src = f, s
	}
	start := strings.Index(src, "function withdraw")
	end := strings.Index(src[start:], "}\n}") + start + 1
	mutated := src[:start] + figure1Withdraw + src[end:]
	if mutated == src {
		t.Fatal("mutation did not apply")
	}
	sampleOut := compile(t, m, rec, map[string]string{file: mutated})

	target, _ := rec.Target(origOut)
	orig, err := Deploy(rec, origOut, target, nil, chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !orig.AtRecorded || orig.Address != rec.RecordedAddress() {
		t.Fatalf("original not at its recorded address: %s vs %s", orig.Address.Hex(), rec.Entry.Address)
	}
	sample, err := DeploySample(rec, orig, sampleOut, chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if sample.Address != orig.Address {
		t.Fatalf("sample and original must share an address: %s vs %s", sample.Address.Hex(), orig.Address.Hex())
	}
	user := common.HexToAddress("0x00000000000000000000000000000000000a11ce")
	block := chain.Block{Number: rec.CreationBlock().Number + 10, Time: rec.CreationBlock().Time + 150}
	overWithdraw := func(d *Deployment) *chain.Result {
		h := d.Chain.Fork()
		call := func(sig string, arg int64) *chain.Result {
			data, err := d.ABI.Pack(sig)
			if arg >= 0 {
				data, err = d.ABI.Pack(sig, big.NewInt(arg))
			}
			if err != nil {
				t.Fatal(err)
			}
			res, err := h.Call(user, d.Address, data, nil, block)
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		if r := call("initialize", -1); !r.Success {
			t.Fatalf("initialize failed: %v", r.Err)
		}
		call("deposit", 5)
		return call("withdraw", 7)
	}
	origRes, sampleRes := overWithdraw(orig), overWithdraw(sample)
	if origRes.Success || !sampleRes.Success {
		t.Fatalf("over-withdrawal: original success=%v (want revert), regenerated success=%v (want success)", origRes.Success, sampleRes.Success)
	}
	if len(origRes.StorageWrites) != 0 || len(sampleRes.StorageWrites) != 1 {
		t.Fatalf("storage: original wrote %d slots (want 0), regenerated %d (want 1, the underflowed balance)", len(origRes.StorageWrites), len(sampleRes.StorageWrites))
	}
	underflow := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(2))
	if got := sampleRes.StorageWrites[0].Value.Big(); got.Cmp(underflow) != 0 {
		t.Fatalf("regenerated balance = %s, want 2^256-2 (silent underflow)", got)
	}
}

// TestReplayReproducesDemoHistory: Vault, and TipJar, whose recorded
// standard-JSON input links its library at the address it had (the
// library must be there on the fresh chain for the history to replay).
func TestReplayReproducesDemoHistory(t *testing.T) {
	m := solc.NewManager(solc.Options{})
	defer m.Close()
	for _, name := range []string{"Vault", "TipJar"} {
		rec := loadDemo(t, name)
		out := compile(t, m, rec, nil)
		target, _ := rec.Target(out)
		d, err := Deploy(rec, out, target, nil, chain.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, tx := range rec.Txs {
			res, err := d.Replay(d.Chain, tx)
			if err != nil {
				t.Fatal(err)
			}
			if res.Success != tx.Succeeded {
				t.Fatalf("%s tx %d (%s): replayed success=%v, recorded %v", name, tx.Index, tx.Hash, res.Success, tx.Succeeded)
			}
		}
		if len(rec.Txs) != 200 {
			t.Fatalf("%s: want the first 200 transactions after the creation, got %d", name, len(rec.Txs))
		}
		if linked := rec.LinkedLibraries(); name == "TipJar" && (len(linked) != 1 || len(d.Chain.Code(linked["TipLedger"])) == 0) {
			t.Fatalf("TipJar: linked libraries %v not placed", linked)
		}
	}
}

func TestConstructorRevertIsACreationError(t *testing.T) {
	m := solc.NewManager(solc.Options{})
	defer m.Close()
	src := "pragma solidity 0.8.19;\ncontract Picky { constructor() { require(block.number > 1e12, \"too early\"); } }"
	out, err := m.Compile(context.Background(), solc.Input{Compiler: "0.8.19", Sources: map[string]string{"Picky.sol": src}})
	if err != nil {
		t.Fatal(err)
	}
	rec := &Record{Entry: etherscan.Entry{Name: "Picky", Address: "0x00000000000000000000000000000000000000aa"}}
	creation := newTx(0, esapi.NormalTx{BlockNumber: 16_900_000, TimeStamp: esapi.Time(time.Unix(1680000000, 0)),
		From: "0x00000000000000000000000000000000000000d1", Value: (*esapi.BigInt)(big.NewInt(0))})
	rec.Creation = &creation
	c, _ := out.Contract("Picky")
	_, err = Deploy(rec, out, c, []byte{}, chain.Options{})
	var de *chain.CreationError
	if err == nil || !errors.As(err, &de) || !strings.Contains(de.Reason, "too early") {
		t.Fatalf("want a CreationError with the revert reason, got %v", err)
	}
}

// The wire form is decoded once, at the edge: hex, amounts, block time and
// both failure flags.
func TestTxDecodedFromTheWireForm(t *testing.T) {
	w := esapi.NormalTx{Hash: "0xab", From: "0x00000000000000000000000000000000000000d1", Nonce: 7,
		Input: "0x0102", Value: (*esapi.BigInt)(big.NewInt(5)), Gas: 90000, GasUsed: 21000,
		BlockNumber: 123, TimeStamp: esapi.Time(time.Unix(1680000000, 0)), TxReceiptStatus: "1"}
	tx := newTx(3, w)
	if tx.Index != 3 || tx.From != common.HexToAddress(w.From) || tx.Sender != w.From || tx.Nonce != 7 ||
		len(tx.Input) != 2 || tx.Value.Int64() != 5 || tx.Gas != 90000 || tx.GasUsed != 21000 ||
		tx.Block != (chain.Block{Number: 123, Time: 1680000000}) || !tx.Succeeded {
		t.Fatalf("decoded %+v", tx)
	}
	for _, failed := range []esapi.NormalTx{{IsError: 1}, {TxReceiptStatus: "0"}} {
		if newTx(0, failed).Succeeded {
			t.Errorf("%+v decoded as succeeded", failed)
		}
	}
	if bad := newTx(0, esapi.NormalTx{Input: "0xzz"}); bad.Input != nil || bad.Value.Sign() != 0 {
		t.Errorf("bad hex or no value: %+v", bad)
	}
	msg := tx.Msg(common.HexToAddress("0xcc"))
	if *msg.To != common.HexToAddress("0xcc") || msg.From != tx.From || msg.Gas != tx.Gas || msg.Block != tx.Block {
		t.Errorf("message %+v", msg)
	}
}
