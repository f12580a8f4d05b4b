package democorpus

import (
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"

	"github.com/solbehave/solbehave/internal/chain"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/etherscan"
	"github.com/solbehave/solbehave/internal/solc"
)

// committedDir is the corpus the repository ships, relative to this package.
const committedDir = "../../data/corpus/demo"

// The compile and the seed-42 run are shared by every test below.
var shared struct {
	once   sync.Once
	builds []build
	recs   []*Recording
	dir    string // the seed-42 corpus written to a temporary folder
	err    error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.dir != "" {
		os.RemoveAll(shared.dir)
	}
	os.Exit(code)
}

// needCompilers skips a test when the real solc, from npm and run on node,
// cannot run here.
func needCompilers(t *testing.T) {
	t.Helper()
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed: the demo corpus needs the real solc from npm", tool)
		}
	}
}

// generated compiles the contracts and records seed 42 once; it skips when
// the compilers cannot run here.
func generated(t *testing.T) ([]build, []*Recording, string) {
	t.Helper()
	needCompilers(t)
	shared.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		m := solc.NewManager(solc.Options{})
		defer m.Close()
		if shared.builds, shared.err = compileAll(ctx, m, Specs()); shared.err != nil {
			return
		}
		if shared.recs, shared.err = record(shared.builds, DefaultSeed); shared.err != nil {
			return
		}
		if shared.dir, shared.err = os.MkdirTemp("", "democorpus-"); shared.err != nil {
			return
		}
		shared.err = WriteCorpus(shared.dir, shared.recs)
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.builds, shared.recs, shared.dir
}

// The committed corpus must be exactly what the generator writes, so it can
// never drift from the contracts and scenarios here.
func TestCommittedCorpusMatchesGenerator(t *testing.T) {
	_, _, dir := generated(t)
	if _, err := os.Stat(committedDir); err != nil {
		t.Fatalf("no committed demo corpus at data/corpus/demo (%v): run go run ./cmd/democorpus -out data/corpus/demo", err)
	}
	want := listFiles(t, dir)
	got := listFiles(t, committedDir)
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("data/corpus/demo/%s is not produced by the generator", name)
		}
	}
	for name, b := range want {
		c, ok := got[name]
		switch {
		case !ok:
			t.Errorf("data/corpus/demo/%s is missing: regenerate with go run ./cmd/democorpus", name)
		case !bytes.Equal(b, c):
			t.Errorf("data/corpus/demo/%s differs from the generator's output: regenerate with go run ./cmd/democorpus", name)
		}
	}
}

func listFiles(t *testing.T, root string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		files[rel], err = os.ReadFile(path)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestHistoriesHaveTheCorpusShape(t *testing.T) {
	builds, recs, _ := generated(t)
	if len(recs) < 8 {
		t.Fatalf("%d contracts, want at least 8", len(recs))
	}
	compilers := map[string]int{}
	for i, r := range recs {
		compilers[r.Source.CompilerVersion]++
		t.Run(r.Source.ContractName, func(t *testing.T) { checkHistory(t, r, historyFloor(builds[i].spec)) })
	}
	for _, c := range []string{compiler0424, compiler0819} {
		if compilers[c] < 3 {
			t.Errorf("%d contracts compiled with %s, want about half", compilers[c], c)
		}
	}
}

// historyFloor is the fewest transactions a contract's history holds: the
// creation and the crawl's 200 calls for a multi-file contract; 300 for a
// single-file one, whose history also feeds O2 beyond the first 200.
func historyFloor(s Spec) int {
	if s.OZ != "" {
		return 201
	}
	return 300
}

func checkHistory(t *testing.T, r *Recording, floor int) {
	if len(r.Txs) < floor {
		t.Errorf("%d transactions, want at least %d", len(r.Txs), floor)
	}
	share := float64(r.Reverted()) / float64(len(r.Txs))
	if share < 0.05 || share > 0.25 {
		t.Errorf("%.1f%% reverted, want 5-25%%", 100*share)
	}
	first := r.Txs[0]
	if first.To != "" || first.ContractAddress != r.Address || first.IsError != "0" {
		t.Errorf("first transaction is not the creation of %s: to=%q contractAddress=%q", r.Address, first.To, first.ContractAddress)
	}
	e, _ := eraOf(r.Source.CompilerVersion)
	var lastBlock, lastTime uint64
	nonces := map[string]uint64{}
	hashes := map[string]bool{}
	for i, tx := range r.Txs {
		block, ts := atoi(t, tx.BlockNumber), atoi(t, tx.TimeStamp)
		if block <= lastBlock || ts <= lastTime {
			t.Fatalf("tx %d: block %d at %d does not follow block %d at %d", i, block, ts, lastBlock, lastTime)
		}
		lastBlock, lastTime = block, ts
		if block < e.firstBlock || block > e.lastBlock || (e.timeLimit != 0 && ts >= e.timeLimit) {
			t.Errorf("tx %d: block %d at %d is outside the %s era", i, block, ts, e.name)
		}
		if i > 0 && (tx.To != r.Address || tx.ContractAddress != "") {
			t.Errorf("tx %d: to=%q contractAddress=%q", i, tx.To, tx.ContractAddress)
		}
		if n, seen := nonces[tx.From]; seen && atoi(t, tx.Nonce) != n+1 {
			t.Errorf("tx %d: nonce %s of %s does not follow %d", i, tx.Nonce, tx.From, n)
		}
		nonces[tx.From] = atoi(t, tx.Nonce)
		if hashes[tx.Hash] || len(tx.Hash) != 66 {
			t.Errorf("tx %d: hash %s repeated or malformed", i, tx.Hash)
		}
		hashes[tx.Hash] = true
		if atoi(t, tx.Gas) < atoi(t, tx.GasUsed) || atoi(t, tx.CumulativeGasUsed) < atoi(t, tx.GasUsed) {
			t.Errorf("tx %d: gas %s, gasUsed %s, cumulative %s", i, tx.Gas, tx.GasUsed, tx.CumulativeGasUsed)
		}
		if (tx.IsError == "1") != (tx.TxReceiptStatus == "0") || (tx.IsError == "1") != (r.Reasons[i] != "") {
			t.Errorf("tx %d: isError %s, txreceipt_status %s, harness said %q", i, tx.IsError, tx.TxReceiptStatus, r.Reasons[i])
		}
		if !strings.HasPrefix(tx.Input, tx.MethodID) {
			t.Errorf("tx %d: methodId %s is not the start of the input", i, tx.MethodID)
		}
	}
}

func atoi(t *testing.T, s string) uint64 {
	t.Helper()
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		t.Fatalf("%q is not a decimal number", s)
	}
	return v
}

// Each spec's NeverCalled functions exist, change state and appear in no
// recorded transaction; every other state-changing function except the
// fallback appears at least once.
func TestNeverCalledIsTheTruth(t *testing.T) {
	_, recs, _ := generated(t)
	for i, spec := range Specs() {
		r := recs[i]
		parsed, err := abi.JSON(strings.NewReader(r.Source.ABI))
		if err != nil {
			t.Fatal(err)
		}
		called := map[string]bool{}
		for _, tx := range r.Txs[1:] {
			called[tx.MethodID] = true
		}
		never := map[string]bool{}
		for _, name := range spec.NeverCalled {
			never[name] = true
			m, ok := parsed.Methods[name]
			if !ok || m.IsConstant() {
				t.Errorf("%s: %s is not a state-changing function", spec.Name, name)
				continue
			}
			if called["0x"+hex.EncodeToString(m.ID)] {
				t.Errorf("%s: history calls %s, listed as never called", spec.Name, name)
			}
		}
		for name, m := range parsed.Methods {
			if !m.IsConstant() && !never[name] && !called["0x"+hex.EncodeToString(m.ID)] {
				t.Errorf("%s: history never calls %s, which NeverCalled does not list", spec.Name, name)
			}
		}
	}
}

// The Figure 1 history: deposits succeed, every withdraw reverts, nobody
// initializes.
func TestVaultHistoryNeverInitializes(t *testing.T) {
	_, recs, _ := generated(t)
	r := recs[0]
	if r.Source.ContractName != "Vault" {
		t.Fatalf("first contract is %s, want Vault", r.Source.ContractName)
	}
	withdraws := 0
	for _, tx := range r.Txs[1:] {
		switch {
		case strings.HasPrefix(tx.FunctionName, "withdraw("):
			withdraws++
			if tx.IsError != "1" {
				t.Errorf("withdraw %s succeeded on an uninitialized vault", tx.Hash)
			}
		case strings.HasPrefix(tx.FunctionName, "deposit("):
			if tx.IsError != "0" {
				t.Errorf("deposit %s reverted", tx.Hash)
			}
		default:
			t.Errorf("unexpected call %q", tx.FunctionName)
		}
	}
	if withdraws == 0 {
		t.Error("no withdraw attempts")
	}
}

// What the pipeline reads: the recorded folders through the Etherscan client
// and the deploy package, replayed on a fresh harness with each record's own
// sender, value, gas limit and block, must reproduce every recorded status.
func TestRecordsReplayAsRecorded(t *testing.T) {
	_, _, dir := generated(t)
	c, err := deploy.OpenCorpus(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Entries) != len(Specs()) {
		t.Fatalf("%d folders, want %d", len(c.Entries), len(Specs()))
	}
	for _, e := range c.Entries {
		t.Run(e.Name, func(t *testing.T) { replayRecord(t, c, e) })
	}
}

func replayRecord(t *testing.T, c *deploy.Corpus, e etherscan.Entry) {
	rec, err := c.Load(e, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Creation == nil || rec.ExpectedAddress() != rec.RecordedAddress() {
		t.Fatalf("creation missing or CREATE does not land at %s", e.Address)
	}
	h := chain.New(chain.Options{})
	for _, p := range shared.builds[indexOf(t, e.Name)].before { // libraries, a proxy's implementation
		h.SetNonce(rec.Deployer(), p.nonce)
		if res, err := h.Apply(chain.Msg{From: rec.Deployer(), Data: p.code, Gas: probeGas, Block: rec.CreationBlock()}); err != nil || res.ContractAddress != p.addr {
			t.Fatalf("%s does not land at %s: %v", p.name, p.addr.Hex(), err)
		}
	}
	h.SetNonce(rec.Deployer(), rec.Creation.Nonce)
	res, err := h.Apply(chain.Msg{From: rec.Deployer(), Data: rec.Creation.Input,
		Gas: rec.Creation.Gas, Block: rec.CreationBlock()})
	if err != nil || !res.Success || res.ContractAddress != rec.RecordedAddress() {
		t.Fatalf("creation: %v %+v", err, res)
	}
	d := &deploy.Deployment{Address: res.ContractAddress}
	mismatches := 0
	for _, tx := range rec.Txs {
		res, err := d.Replay(h, tx)
		if err != nil {
			t.Fatal(err)
		}
		if res.Success != tx.Succeeded || res.GasUsed != tx.GasUsed {
			mismatches++
			if mismatches <= 3 {
				t.Errorf("tx %d (%s): replay success=%v gas=%d, recorded success=%v gasUsed=%d",
					tx.Index, tx.Hash, res.Success, res.GasUsed, tx.Succeeded, tx.GasUsed)
			}
		}
	}
	if len(rec.Txs)+1 != len(shared.recs[indexOf(t, e.Name)].Txs) {
		t.Errorf("client read %d calls", len(rec.Txs))
	}
}

func indexOf(t *testing.T, name string) int {
	for i, s := range Specs() {
		if s.Name == name {
			return i
		}
	}
	t.Fatalf("no spec %s", name)
	return -1
}

// Another seed gives other histories at the same addresses; the same seed
// gives the same bytes.
func TestSeedChangesHistoriesNotAddresses(t *testing.T) {
	builds, recs, _ := generated(t)
	again, err := record(builds[:2], DefaultSeed)
	if err != nil {
		t.Fatal(err)
	}
	other, err := record(builds[:2], 7)
	if err != nil {
		t.Fatal(err)
	}
	for i := range again {
		a, _ := recs[i].Files()
		b, _ := again[i].Files()
		if !bytes.Equal(a["txlist.json"], b["txlist.json"]) {
			t.Errorf("%s: rerunning seed 42 gave other bytes", recs[i].Source.ContractName)
		}
		c, _ := other[i].Files()
		if bytes.Equal(a["txlist.json"], c["txlist.json"]) {
			t.Errorf("%s: seed 7 gave the same history as seed 42", recs[i].Source.ContractName)
		}
		if other[i].Address != recs[i].Address {
			t.Errorf("%s: address moved with the seed", recs[i].Source.ContractName)
		}
	}
}

func TestSpecAddressesAreCreateAddresses(t *testing.T) {
	_, recs, _ := generated(t)
	for i, spec := range Specs() {
		addr, err := spec.Address()
		if err != nil {
			t.Fatal(err)
		}
		if got := common.HexToAddress(recs[i].Address); got != addr {
			t.Errorf("%s: recorded at %s, Spec.Address says %s", spec.Name, got.Hex(), addr.Hex())
		}
	}
}

func ExampleSpecs() {
	for _, s := range Specs()[:2] {
		addr, _ := s.Address()
		fmt.Println(s.Name, s.Compiler, strings.ToLower(addr.Hex()), s.NeverCalled)
	}
	// Output:
	// Vault v0.4.24+commit.e67f0147 0x4c9fd16cf84c1405a1a54a415446860e67a41b37 [initialize]
	// GiftToken v0.4.24+commit.e67f0147 0xb9554c2ee261c84d70d3c0d5543b0c35417b4ccf [setBuyPrice transferOwnership]
}
