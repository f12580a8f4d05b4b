package crawl

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient/simulated"

	"github.com/solbehave/solbehave/internal/etherscan"
	"github.com/solbehave/solbehave/internal/stagetest"
	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

// chainWithTraffic starts an in-process go-ethereum node (the simulated
// backend), deploys three contracts and sends them, and one plain account,
// different numbers of transactions.
func chainWithTraffic(t *testing.T) (*simulated.Backend, []common.Address) {
	key, _ := crypto.GenerateKey()
	from := crypto.PubkeyToAddress(key.PublicKey)
	sim := simulated.NewBackend(types.GenesisAlloc{from: {Balance: new(big.Int).Lsh(big.NewInt(1), 100)}})
	t.Cleanup(func() { sim.Close() })
	client := sim.Client()
	ctx := context.Background()
	chainID, _ := client.ChainID(ctx)
	nonce := uint64(0)
	send := func(to *common.Address, data []byte) {
		tx := types.MustSignNewTx(key, types.LatestSignerForChainID(chainID), &types.DynamicFeeTx{
			ChainID: chainID, Nonce: nonce, GasTipCap: big.NewInt(2e9), GasFeeCap: big.NewInt(1e11), Gas: 100000, To: to, Data: data})
		if err := client.SendTransaction(ctx, tx); err != nil {
			t.Fatal(err)
		}
		nonce++
		sim.Commit()
	}
	// Runtime code 0x00 (STOP), returned by a tiny constructor: PUSH1 1 PUSH1 0x0c PUSH1 0 CODECOPY PUSH1 1 PUSH1 0 RETURN 00
	initCode := common.FromHex("600160" + "0c" + "600039600160" + "00" + "f300" + "00")
	var contracts []common.Address
	for i := 0; i < 3; i++ {
		contracts = append(contracts, crypto.CreateAddress(from, nonce))
		send(nil, initCode)
	}
	eoa := common.HexToAddress("0x00000000000000000000000000000000000e0a00")
	for i, n := range []int{5, 3, 1} {
		for j := 0; j < n; j++ {
			send(&contracts[i], []byte{byte(j)})
		}
	}
	for j := 0; j < 7; j++ {
		send(&eoa, nil)
	}
	return sim, contracts
}

func TestDiscoverRanksCallTargetsWithCode(t *testing.T) {
	sim, contracts := chainWithTraffic(t)
	got, err := Discover(context.Background(), sim.Client(), DiscoverOptions{FromBlock: 1, Blocks: 40, Batch: 4, Top: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("want the 3 contracts (the busier plain account has no code), got %+v", got)
	}
	for i, want := range []int{5, 3, 1} {
		if got[i].Address != contracts[i] || got[i].Txs != want {
			t.Fatalf("rank %d: got %+v, want %s with %d txs", i, got[i], contracts[i].Hex(), want)
		}
	}
}

// TestLiveCrawlOverHTTP runs the live code path end to end: candidates found
// by sampling the in-process chain, then fetched from a local HTTP server that
// serves recorded Etherscan answers for them.
func TestLiveCrawlOverHTTP(t *testing.T) {
	sim, contracts := chainWithTraffic(t)
	corpus := t.TempDir()
	writeRecord(t, corpus, "Token", contracts[0], tokenSource, 250, tokenABI)
	writeRecord(t, corpus, "Proxy", contracts[1], "contract Proxy { bytes32 s = 0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc; }", 300)
	writeRecord(t, corpus, "Small", contracts[2], "contract Small {}", 20)
	data := t.TempDir()
	s, env := liveStage(t, corpus, data)
	s.FromBlock, s.Blocks = 1, 40
	rows := runWithRPC(t, s, env, sim)
	want := map[string]string{"Token": "", "Proxy": "proxy", "Small": "short_history"}
	for _, r := range rows {
		if !strings.HasPrefix(r.Reason, want[r.Name]) || (want[r.Name] == "") != r.Passed {
			t.Errorf("%s: passed=%v reason=%q, want reason %q", r.Name, r.Passed, r.Reason, want[r.Name])
		}
	}
	if len(rows) != 3 {
		t.Fatalf("want 3 candidates, got %d", len(rows))
	}
	// Only the candidate that passed every filter enters the corpus verify reads.
	written, err := etherscan.ListCorpus(filepath.Join(data, "corpus", "crawled"))
	if err != nil || len(written) != 1 || !strings.HasPrefix(written[0].ID, "Token_") {
		t.Fatalf("the crawl should write only the passing record (Token) as a corpus: %v %v", written, err)
	}
	for _, r := range rows {
		if r.Name == "Token" && (r.NNontrivialFunctions != 3 || r.NStateChangingABI != 2 || r.SizeBucket != "1-5") {
			t.Errorf("Token: %d non-trivial functions in its chain, %d state-changing in its ABI (%q), want 3 and 2 (1-5)",
				r.NNontrivialFunctions, r.NStateChangingABI, r.SizeBucket)
		}
		if r.Name != "Token" && !strings.HasPrefix(r.ContractID, r.Name+"_") {
			t.Errorf("%s: a rejected candidate keeps its folder name as id, got %q", r.Name, r.ContractID)
		}
	}
	rc, _ := etherscan.NewRecorded(filepath.Join(data, "corpus", "crawled"))
	txs, err := rc.Transactions(context.Background(), written[0].Address, 1000)
	if err != nil || len(txs) == 0 {
		t.Fatalf("written corpus does not read back: %v", err)
	}
}

// runWithRPC plans with the in-process node as the RPC source and runs every unit.
func runWithRPC(t *testing.T, s *Stage, env *pipeline.Env, sim *simulated.Backend) []schemas.CrawlCandidate {
	t.Helper()
	ranked, err := Discover(context.Background(), sim.Client(), s.discoverOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range ranked {
		s.Addresses = append(s.Addresses, r.Address.Hex())
	}
	stagetest.Run(t, env, s)
	return stagetest.Rows(t, env, schemas.CrawlCandidates)
}

func writeRecord(t *testing.T, corpus, name string, addr common.Address, src string, calls int, abiJSON ...string) {
	t.Helper()
	recordedABI := "[]"
	if len(abiJSON) > 0 {
		recordedABI = abiJSON[0]
	}
	a := strings.ToLower(addr.Hex())
	dir := filepath.Join(corpus, name+"_"+a)
	os.MkdirAll(dir, 0o755)
	source := map[string]any{"status": "1", "message": "OK", "result": []map[string]string{{
		"SourceCode": src, "ABI": recordedABI, "ContractName": name, "CompilerVersion": "v0.4.24+commit.e67f0147",
		"OptimizationUsed": "0", "Runs": "200", "ConstructorArguments": ""}}}
	txs := []map[string]string{txRecord(0, "", a, a)}
	for i := 1; i <= calls; i++ {
		txs = append(txs, txRecord(i, a, "", a))
	}
	b, _ := json.Marshal(source)
	os.WriteFile(filepath.Join(dir, "getsourcecode.json"), b, 0o644)
	b, _ = json.Marshal(map[string]any{"status": "1", "message": "OK", "result": txs})
	os.WriteFile(filepath.Join(dir, "txlist.json"), b, 0o644)
}

func txRecord(i int, to, created, addr string) map[string]string {
	return map[string]string{"blockNumber": fmt.Sprint(100 + i), "timeStamp": fmt.Sprint(1600000000 + 12*i),
		"hash": fmt.Sprintf("0x%064x", i), "nonce": fmt.Sprint(i), "transactionIndex": "0", "from": "0x00000000000000000000000000000000000000f1",
		"to": to, "value": "0", "gas": "100000", "gasPrice": "1", "isError": "0", "txreceipt_status": "1", "input": "0x",
		"contractAddress": created, "cumulativeGasUsed": "21000", "gasUsed": "21000", "confirmations": "1"}
}

// liveStage is a live crawl of a local server that serves corpus as
// Etherscan's API, writing under data.
func liveStage(t *testing.T, corpus, data string) (*Stage, *pipeline.Env) {
	t.Helper()
	h, err := etherscan.RecordedHandler(corpus)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	t.Setenv("ETHERSCAN_API_KEY", "test-key-not-secret")
	s := New()
	s.Live, s.EtherscanURL, s.Rate = true, srv.URL+"/v2/api?chainid=1&", 1000
	env := &pipeline.Env{Corpus: corpus, Data: data, Jobs: 2, Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Warehouse: warehouse.New(filepath.Join(data, "warehouse")), Engines: &pipeline.Engines{}}
	return s, env
}

// tokenABI has two state-changing functions (one legacy-style), a view, a
// pure function, an event and a constructor: 2 count for Figure 2.
const tokenABI = `[{"type":"constructor","inputs":[]},
 {"type":"function","name":"f","inputs":[],"outputs":[],"stateMutability":"nonpayable"},
 {"type":"function","name":"g","inputs":[],"outputs":[],"constant":false,"payable":true},
 {"type":"function","name":"v","inputs":[],"outputs":[{"name":"","type":"uint256"}],"stateMutability":"view"},
 {"type":"function","name":"p","inputs":[],"outputs":[{"name":"","type":"uint256"}],"constant":true},
 {"type":"event","name":"E","inputs":[],"anonymous":false}]`

// tokenSource is Token as Etherscan answers a multi-file contract: its
// standard-JSON input between double braces, Token's base in another file.
// Its chain has 3 non-trivial functions (f, g and the base's internal
// _mint; not the views, the pure function nor the constructor), its ABI 2.
var tokenSource = "{" + mustJSON(map[string]any{
	"language": "Solidity",
	"sources": map[string]any{
		"contracts/Token.sol": map[string]string{"content": "pragma solidity ^0.8.0;\nimport {Base} from \"./Base.sol\";\n" +
			"contract Token is Base {\n    function f() public { _mint(); }\n    function g() public payable {}\n" +
			"    function v() public view returns (uint256) { return _peek(); }\n    function p() public pure returns (uint256) { return 2; }\n}\n"},
		"contracts/Base.sol": map[string]string{"content": "pragma solidity ^0.8.0;\nlibrary L { function x() internal {} }\n" +
			"abstract contract Base {\n    uint256 s;\n    constructor() { s = 1; }\n    function _mint() internal { s++; }\n" +
			"    function _peek() internal view returns (uint256) { return s; }\n}\n"},
	},
	"settings": map[string]any{"optimizer": map[string]any{"enabled": false, "runs": 200}, "libraries": map[string]any{}},
}) + "}"

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// The recorded path applies the same filters as the live one, and sizes
// every candidate from its recorded source (the chain count) and ABI.
func TestRecordedCrawlFiltersProxiesAndShortHistories(t *testing.T) {
	corpus := t.TempDir()
	addr := func(i byte) common.Address { return common.BytesToAddress([]byte{0xc0, i}) }
	writeRecord(t, corpus, "Token", addr(1), tokenSource, 250, tokenABI)
	writeRecord(t, corpus, "Proxy", addr(2), "contract Proxy { bytes32 s = 0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc; }", 300)
	writeRecord(t, corpus, "Small", addr(3), "contract Small {}", 199)
	env := stagetest.IsolatedEnv(t, corpus)
	stagetest.Run(t, env, New())
	rows := stagetest.Rows(t, env, schemas.CrawlCandidates)
	if len(rows) != 3 {
		t.Fatalf("want 3 candidates: %+v", rows)
	}
	want := map[string]string{"Token": "", "Proxy": "proxy", "Small": "short_history: 199 < 200"}
	for _, r := range rows {
		if !strings.HasPrefix(r.Reason, want[r.Name]) || (want[r.Name] == "") != r.Passed || r.Origin != "recorded" {
			t.Errorf("%s: passed=%v reason=%q origin=%q, want reason %q", r.Name, r.Passed, r.Reason, r.Origin, want[r.Name])
		}
		if wantSize := map[string]int64{"Token": 3}[r.Name]; r.NNontrivialFunctions != wantSize {
			t.Errorf("%s: %d non-trivial functions, want %d", r.Name, r.NNontrivialFunctions, wantSize)
		}
		if wantABI := map[string]int64{"Token": 2}[r.Name]; r.NStateChangingABI != wantABI {
			t.Errorf("%s: %d state-changing ABI functions, want %d", r.Name, r.NStateChangingABI, wantABI)
		}
	}
}

// The recorded crawl of the demo corpus: the proxy (Etherscan's flag on an
// ERC1967Proxy standard-JSON record) is dropped, every other candidate
// passes, and each multi-file candidate is sized from its files: 1 to 20
// non-trivial functions in its chain, more than its state-changing ABI
// methods (OpenZeppelin's internal functions count).
func TestRecordedCrawlOfTheDemoCorpus(t *testing.T) {
	env := stagetest.IsolatedEnv(t, stagetest.DemoCorpus)
	stagetest.Run(t, env, New())
	rows := stagetest.Rows(t, env, schemas.CrawlCandidates)
	multi := map[string]int64{"PhasedMintNFT": 20, "RoleVesting": 12, "HarborToken": 19, "TipJar": 10}
	for _, r := range rows {
		if r.Name == "ERC1967Proxy" {
			if r.Passed || r.Reason != "proxy" {
				t.Errorf("the proxy: passed=%v reason=%q", r.Passed, r.Reason)
			}
			continue
		}
		if !r.Passed || r.NNontrivialFunctions < 1 || r.NNontrivialFunctions > 20 {
			t.Errorf("%s: passed=%v (%s), %d non-trivial functions", r.Name, r.Passed, r.Reason, r.NNontrivialFunctions)
		}
		if n, ok := multi[r.Name]; ok && (r.NNontrivialFunctions != n || r.NStateChangingABI >= n) {
			t.Errorf("%s: chain count %d (want %d), %d state-changing ABI methods", r.Name, r.NNontrivialFunctions, n, r.NStateChangingABI)
		}
	}
	if len(rows) != 13 {
		t.Fatalf("%d candidates, want 13", len(rows))
	}
}
