package democorpus

import (
	"bytes"
	"encoding/json"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	esapi "github.com/nanmu42/etherscan-api"
)

// These tests need no compiler.

func TestPopulationIsDeterministicPerSeed(t *testing.T) {
	a, err := population(42, 5)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := population(42, 5)
	c, _ := population(43, 5)
	seen := map[common.Address]bool{}
	for i := range a {
		if a[i].Addr != b[i].Addr {
			t.Errorf("user %d differs between two derivations of seed 42", i)
		}
		if a[i].Addr == c[i].Addr {
			t.Errorf("user %d is the same for seeds 42 and 43", i)
		}
		if seen[a[i].Addr] {
			t.Errorf("user %d repeats an address", i)
		}
		seen[a[i].Addr] = true
		if crypto.PubkeyToAddress(a[i].Key.PublicKey) != a[i].Addr {
			t.Errorf("user %d: key and address disagree", i)
		}
	}
}

func TestSignatureOfMatchesEtherscan(t *testing.T) {
	parsed, err := abi.JSON(bytes.NewReader([]byte(`[
		{"type":"function","name":"transfer","inputs":[{"name":"_to","type":"address"},{"name":"_value","type":"uint256"}],"outputs":[]},
		{"type":"function","name":"submit","inputs":[{"name":"","type":"address[]"},{"name":"data","type":"bytes"}],"outputs":[]},
		{"type":"function","name":"buy","inputs":[],"outputs":[],"stateMutability":"payable"}]`)))
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"transfer": "transfer(address _to, uint256 _value)",
		"submit":   "submit(address[], bytes data)",
		"buy":      "buy()",
	} {
		if got := signatureOf(parsed.Methods[name]); got != want {
			t.Errorf("signatureOf(%s) = %q, want %q", name, got, want)
		}
	}
}

func TestGasLimitLeavesHeadroom(t *testing.T) {
	for used, want := range map[uint64]uint64{21_000: 36_000, 21_606: 36_000, 50_001: 71_000, 967_429: 1_171_000} {
		if got := gasLimitFor(used); got != want {
			t.Errorf("gasLimitFor(%d) = %d, want %d", used, got, want)
		}
	}
}

// The voucher must recover to the sender under the digest PaymentChannel
// rebuilds: keccak256("\x19Ethereum Signed Message:\n32", keccak256(contract, id, amount)).
func TestVoucherRecoversToSender(t *testing.T) {
	users, err := population(1, 2)
	if err != nil {
		t.Fatal(err)
	}
	contract := common.HexToAddress("0x9116970dab2ae2953809c53fe23f46057f2cae85")
	id, amount := big.NewInt(3), milliEther(1250)
	sig, err := voucher(users[0], contract, id, amount)
	if err != nil {
		t.Fatal(err)
	}
	if len(sig) != 65 || (sig[64] != 27 && sig[64] != 28) {
		t.Fatalf("signature of %d bytes with v=%d", len(sig), sig[64])
	}
	inner := crypto.Keccak256(contract.Bytes(), common.LeftPadBytes(id.Bytes(), 32), common.LeftPadBytes(amount.Bytes(), 32))
	digest := crypto.Keccak256([]byte("\x19Ethereum Signed Message:\n32"), inner)
	raw := append([]byte{}, sig...)
	raw[64] -= 27
	pub, err := crypto.SigToPub(digest, raw)
	if err != nil {
		t.Fatal(err)
	}
	if crypto.PubkeyToAddress(*pub) != users[0].Addr {
		t.Error("voucher does not recover to its sender")
	}
	other, _ := voucher(users[1], contract, id, amount)
	if bytes.Equal(other, sig) {
		t.Error("two senders gave the same voucher")
	}
}

// The written folders parse with the Etherscan client's own types and keep
// the envelope and field order of the mainnet recordings.
func TestWriteCorpusLayout(t *testing.T) {
	dir := t.TempDir()
	rec := &Recording{
		Address: "0x00000000000000000000000000000000000000aa",
		Source:  SourceRecord{SourceCode: "contract A { function f() public { if (1 < 2 && true) {} } }", ABI: "[]", ContractName: "A", CompilerVersion: compiler0424, OptimizationUsed: "1", Runs: "200"},
		Txs: []TxRecord{{BlockNumber: "5500000", TimeStamp: "1524000000", Hash: "0x01", Nonce: "0", TransactionIndex: "0", From: "0x0b", Value: "0",
			Gas: "100000", GasPrice: "1000000000", IsError: "0", TxReceiptStatus: "1", Input: "0x6080",
			ContractAddress: "0x00000000000000000000000000000000000000aa", CumulativeGasUsed: "60000", GasUsed: "60000", Confirmations: "1"}},
	}
	if err := WriteCorpus(dir, []*Recording{rec}); err != nil {
		t.Fatal(err)
	}
	var index []IndexEntry
	readJSON(t, filepath.Join(dir, "index.json"), &index)
	if len(index) != 1 || index[0].ID != "A_0x00000000000000000000000000000000000000aa" || index[0].TransactionsTotal != 1 {
		t.Fatalf("index %+v", index)
	}
	var src struct {
		Status string
		Result []esapi.ContractSource
	}
	readJSON(t, filepath.Join(dir, index[0].ID, "getsourcecode.json"), &src)
	if src.Status != "1" || src.Result[0].SourceCode != rec.Source.SourceCode || src.Result[0].OptimizationUsed != 1 {
		t.Errorf("source read back as %+v", src)
	}
	raw, _ := os.ReadFile(filepath.Join(dir, index[0].ID, "getsourcecode.json"))
	if bytes.Contains(raw, []byte(`\u003c`)) {
		t.Error("source code is HTML-escaped")
	}
	var txs struct {
		Message string
		Result  []esapi.NormalTx
	}
	readJSON(t, filepath.Join(dir, index[0].ID, "txlist.json"), &txs)
	if txs.Message != "OK" || len(txs.Result) != 1 || txs.Result[0].BlockNumber != 5_500_000 || txs.Result[0].GasUsed != 60000 {
		t.Errorf("txlist read back as %+v", txs)
	}
	if err := WriteCorpus(dir, []*Recording{{Source: SourceRecord{ContractName: "B"}}}); err == nil {
		t.Error("a recording without an address was written")
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func TestAmountsStayInRange(t *testing.T) {
	s := &session{rng: rand.New(rand.NewPCG(1, 2))}
	for range 2000 {
		v := s.amountEther(50, 4000)
		if v.Cmp(milliEther(50)) < 0 || v.Cmp(milliEther(4000)) > 0 {
			t.Fatalf("amountEther(50, 4000) gave %s", v)
		}
		f := s.fraction(big.NewInt(7), 10, 10)
		if f.Sign() <= 0 || f.Cmp(big.NewInt(7)) > 0 {
			t.Fatalf("fraction of 7 gave %s", f)
		}
	}
}

// pickWhere picks only what keep accepts, and draws nothing when keep
// accepts none: the scenarios call it where nothing may apply yet, and a
// draw there would shift every later one.
func TestPickWhereDrawsOnlyAmongKept(t *testing.T) {
	s := &session{rng: rand.New(rand.NewPCG(1, 2))}
	twin := rand.New(rand.NewPCG(1, 2))
	if _, ok := pickWhere(s, []int{1, 3, 5}, func(v int) bool { return v%2 == 0 }); ok {
		t.Fatal("pickWhere found an even number among 1, 3, 5")
	}
	if got, want := s.rng.Uint64(), twin.Uint64(); got != want {
		t.Fatal("pickWhere drew from the RNG though nothing was kept")
	}
	for range 200 {
		v, ok := pickWhere(s, []int{1, 2, 3, 4, 5}, func(v int) bool { return v%2 == 0 })
		if !ok || v%2 != 0 {
			t.Fatalf("pickWhere gave %d, %v: want an even number", v, ok)
		}
	}
}
