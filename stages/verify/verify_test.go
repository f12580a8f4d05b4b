package verify

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/solbehave/solbehave/internal/failure"
	"github.com/solbehave/solbehave/internal/stagetest"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

// fixture writes one contract folder of a synthetic corpus.
type fixture struct {
	dir      string
	name     string
	deployer common.Address
	address  common.Address
}

func newFixture(t *testing.T, corpus, name string, nonce uint64) *fixture {
	deployer := crypto.PubkeyToAddress(mustKey(t, name).PublicKey)
	f := &fixture{name: name, deployer: deployer, address: crypto.CreateAddress(deployer, nonce)}
	f.dir = filepath.Join(corpus, name+"_"+strings.ToLower(f.address.Hex()))
	if err := os.MkdirAll(f.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return f
}

func mustKey(t *testing.T, seed string) *ecdsa.PrivateKey {
	k, err := crypto.ToECDSA(crypto.Keccak256([]byte(seed)))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func (f *fixture) writeRaw(file, body string) {
	os.WriteFile(filepath.Join(f.dir, file), []byte(body), 0o644)
}

func (f *fixture) writeSource(t *testing.T, source, compiler string) {
	b, _ := json.Marshal(map[string]any{"status": "1", "message": "OK", "result": []map[string]string{{
		"SourceCode": source, "ABI": "[]", "ContractName": f.name, "CompilerVersion": compiler,
		"OptimizationUsed": "1", "Runs": "200", "ConstructorArguments": ""}}})
	f.writeRaw("getsourcecode.json", string(b))
}

// writeHistory records the creation (nonce 0) and n calls of set(i), all successful.
func (f *fixture) writeHistory(n int) {
	addr := strings.ToLower(f.address.Hex())
	from := strings.ToLower(f.deployer.Hex())
	txs := []map[string]string{tx(0, from, "", addr, "0x")}
	sel := "0x60fe47b1" // set(uint256)
	for i := 1; i <= n; i++ {
		txs = append(txs, tx(i, from, addr, "", fmt.Sprintf("%s%064x", sel, i)))
	}
	b, _ := json.Marshal(map[string]any{"status": "1", "message": "OK", "result": txs})
	f.writeRaw("txlist.json", string(b))
}

func tx(i int, from, to, created, input string) map[string]string {
	return map[string]string{"blockNumber": fmt.Sprint(16_800_000 + i), "timeStamp": fmt.Sprint(1_677_000_000 + 12*i),
		"hash": fmt.Sprintf("0x%064x", i+1), "nonce": fmt.Sprint(i), "transactionIndex": "0", "from": from, "to": to,
		"value": "0", "gas": "200000", "gasPrice": "1", "isError": "0", "txreceipt_status": "1", "input": input,
		"contractAddress": created, "cumulativeGasUsed": "50000", "gasUsed": "43000", "confirmations": "1"}
}

// runVerify runs s over corpus into a fresh data folder.
func runVerify(t *testing.T, corpus string, s *Stage) (*pipeline.Env, pipeline.Counters) {
	t.Helper()
	env := stagetest.IsolatedEnv(t, corpus)
	return env, stagetest.Run(t, env, s)
}

// verifyContracts runs s over corpus, wants no unit failed (a filtered
// contract is not a failure) and n `contracts` rows, and returns them.
func verifyContracts(t *testing.T, corpus string, s *Stage, n int) (*pipeline.Env, []schemas.Contract) {
	t.Helper()
	env, c := runVerify(t, corpus, s)
	if c.Failed != 0 {
		t.Fatalf("counters %+v: a filtered contract is not a failure", c)
	}
	rows := stagetest.Rows(t, env, schemas.Contracts)
	if len(rows) != n {
		t.Fatalf("%d contracts rows, want %d: %+v", len(rows), n, rows)
	}
	return env, rows
}

const store = `pragma solidity 0.8.19;
contract %s { uint256 public x; %s function set(uint256 v) public { x = v; } }`

// TestBadInputsAreRecordedAndTheRunGoesOn verifies a corpus where every
// contract but one is broken in its own way; each broken one ends with its
// reason, and the good one is kept.
func TestBadInputsAreRecordedAndTheRunGoesOn(t *testing.T) {
	corpus := t.TempDir()
	want := map[string]string{}
	add := func(name, reason string, write func(f *fixture)) {
		f := newFixture(t, corpus, name, 0)
		write(f)
		want[name] = reason
	}
	add("Good", "", func(f *fixture) {
		f.writeSource(t, fmt.Sprintf(store, "Good", ""), "v0.8.19+commit.7dd6d404")
		f.writeHistory(30)
	})
	add("Malformed", "source", func(f *fixture) {
		f.writeRaw("getsourcecode.json", `{"status":"1","message":"OK","result":[{"SourceCode": oops}]}`)
	})
	add("Truncated", "source", func(f *fixture) {
		f.writeSource(t, fmt.Sprintf(store, "Truncated", ""), "v0.8.19+commit.7dd6d404")
		f.writeHistory(5)
		b, _ := os.ReadFile(filepath.Join(f.dir, "txlist.json"))
		f.writeRaw("txlist.json", string(b[:len(b)/2]))
	})
	add("RateLimited", "source", func(f *fixture) {
		f.writeRaw("getsourcecode.json", `{"status":"0","message":"NOTOK","result":"Max rate limit reached"}`)
	})
	add("Unverified", "unverified", func(f *fixture) {
		f.writeSource(t, "", "")
		f.writeHistory(5)
	})
	add("MultiFile", "", func(f *fixture) {
		std := `{{"language":"Solidity","sources":{"contracts/MultiFile.sol":{"content":"pragma solidity 0.8.19; import './Base.sol'; contract MultiFile is Base { function set(uint256 v) public { x = v; } }"},` +
			`"contracts/Base.sol":{"content":"pragma solidity 0.8.19; contract Base { uint256 public x; }"}},"settings":{"optimizer":{"enabled":true,"runs":200}}}}`
		f.writeSource(t, std, "v0.8.19+commit.7dd6d404")
		f.writeHistory(30)
	})
	add("UnknownCompiler", "compile", func(f *fixture) {
		f.writeSource(t, fmt.Sprintf(store, "UnknownCompiler", ""), "v0.4.99+commit.00000000")
		f.writeHistory(5)
	})
	add("NoCompile", "compile", func(f *fixture) {
		f.writeSource(t, fmt.Sprintf(store, "NoCompile", "this is not solidity;"), "v0.8.19+commit.7dd6d404")
		f.writeHistory(5)
	})
	add("Reverting", "deploy", func(f *fixture) {
		f.writeSource(t, fmt.Sprintf(store, "Reverting", `constructor() { require(false, "nope"); }`), "v0.8.19+commit.7dd6d404")
		f.writeHistory(5)
	})

	s := New()
	s.Budget, s.MinTxs = 20, 5 // short synthetic histories: the crawl filter has its own test
	env, c := runVerify(t, corpus, s)
	if c.Units != len(want) || c.Failed != len(want)-2 {
		t.Fatalf("counters %+v: want %d units, %d failed", c, len(want), len(want)-2)
	}
	rows := stagetest.Rows(t, env, schemas.Reproducibility)
	if len(rows) != len(want) {
		t.Fatalf("want a reproducibility row for each of the %d contracts, got %d", len(want), len(rows))
	}
	for _, r := range rows {
		name := strings.Split(r.ContractID, "_0x")[0]
		if r.ReasonClass != want[name] {
			t.Errorf("%s: reason class %q (%s), want %q", name, r.ReasonClass, r.Reason, want[name])
		}
		if want[name] == "" && (!r.Kept || r.Reproduced != 20 || !r.AtRecordedAddress) {
			t.Errorf("%s should be kept with 20/20 reproduced at its recorded address: %+v", name, r)
		}
		if want[name] != "" && r.Reason == "" {
			t.Errorf("%s: no reason recorded", name)
		}
	}
	errs := stagetest.Rows(t, env, schemas.Errors)
	if len(errs) != len(want)-2 {
		t.Fatalf("want %d error rows, got %d", len(want)-2, len(errs))
	}

	// A rerun on unchanged inputs recomputes nothing.
	if c = stagetest.Run(t, env, s); c.Ran != 0 || c.Skipped != len(want) {
		t.Fatalf("rerun should skip every unit: %+v", c)
	}
}

// The crawl's filters hold on a recorded corpus too (a folder copied in, or a
// crawl that let it through): a proxy and a contract with fewer than 200
// transactions are not kept, each with its reason, without an error row; the
// transaction count reads past the replay budget.
func TestCrawlFiltersHoldOnARecordedCorpus(t *testing.T) {
	corpus := t.TempDir()
	want := map[string]string{}
	add := func(name, reason, extra string, calls int) {
		f := newFixture(t, corpus, name, 0)
		f.writeSource(t, fmt.Sprintf(store, name, extra), "v0.8.19+commit.7dd6d404")
		f.writeHistory(calls)
		want[name] = reason
	}
	add("Good", "", "", 250)
	add("Proxied", "proxy", `bytes32 constant SLOT = keccak256("eip1967.proxy.implementation");`, 250)
	add("Short", "short_history", "", 199)
	s := New()
	s.Budget = 20
	_, rows := verifyContracts(t, corpus, s, len(want))
	for _, r := range rows {
		reason := want[r.Name]
		if r.Kept != (reason == "") || !strings.HasPrefix(r.Reason, reason) {
			t.Errorf("%s: kept %v reason %q, want reason %q", r.Name, r.Kept, r.Reason, reason)
		}
	}
}

// standardJSON is a two-file source as Etherscan records a standard-JSON
// contract: name's target file holds `set` (the one state-changing ABI
// method), its base in base/Base.sol n internal state-changing helpers.
func standardJSON(name string, n int) string {
	var helpers strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&helpers, "    function _h%d() internal { y += %d; }\n", i, i)
	}
	in := map[string]any{
		"language": "Solidity",
		"sources": map[string]any{
			"src/" + name + ".sol": map[string]string{"content": fmt.Sprintf("pragma solidity 0.8.19;\nimport {Base} from \"./base/Base.sol\";\n"+
				"contract %s is Base {\n    uint256 public x;\n    function set(uint256 v) public { x = v; }\n}\n", name)},
			"src/base/Base.sol": map[string]string{"content": "pragma solidity 0.8.19;\nabstract contract Base {\n    uint256 internal y;\n" +
				"    function peek() public view returns (uint256) { return y; }\n" + helpers.String() + "}\n"},
		},
		"settings": map[string]any{"optimizer": map[string]any{"enabled": true, "runs": 200}},
	}
	b, _ := json.Marshal(in)
	return "{" + string(b) + "}"
}

// TestSizeFilterCountsTheChainAcrossFiles: the size filter counts every
// non-trivial body of the inheritance chain, internal helpers in a base in
// another file included, not the state-changing ABI methods (1 for both
// contracts here): Wide has 1 + 20 and is dropped, Lean 1 + 3 and is kept.
func TestSizeFilterCountsTheChainAcrossFiles(t *testing.T) {
	corpus := t.TempDir()
	for name, helpers := range map[string]int{"Wide": 20, "Lean": 3} {
		f := newFixture(t, corpus, name, 0)
		f.writeSource(t, standardJSON(name, helpers), "v0.8.19+commit.7dd6d404")
		f.writeHistory(210)
	}
	s := New()
	s.Budget = 20
	env, rows := verifyContracts(t, corpus, s, 2)
	type size struct {
		chain, abi int64
		bucket     string
		kept       bool
	}
	want := map[string]size{"Wide": {21, 1, "21-30", false}, "Lean": {4, 1, "1-5", true}}
	for _, r := range rows {
		got := size{r.NNontrivialFunctions, r.NStateChangingABI, r.SizeBucket, r.Kept}
		if got != want[r.Name] {
			t.Errorf("%s: %+v, want %+v (%s)", r.Name, got, want[r.Name], r.Reason)
		}
		if !r.Kept && r.Reason != "size filter: 21 non-trivial functions" {
			t.Errorf("%s: reason %q", r.Name, r.Reason)
		}
	}
	fns := stagetest.Rows(t, env, schemas.Functions)
	nontrivial := map[string]int64{}
	for _, f := range fns {
		if f.Nontrivial {
			nontrivial[f.ContractID[:strings.IndexByte(f.ContractID, '_')]]++
		}
	}
	if nontrivial["Wide"] != 21 || nontrivial["Lean"] != 4 {
		t.Errorf("functions rows marked non-trivial: %v, want Wide 21, Lean 4", nontrivial)
	}
}

// TestUninstallableCompilerIsRetried: with the npm registry unreachable and
// an empty compiler cache, the contract is not judged: its error row says
// network and retriable, its reason class network, and a plain rerun tries
// the unit again instead of keeping the failure.
func TestUninstallableCompilerIsRetried(t *testing.T) {
	t.Setenv("npm_config_registry", "http://127.0.0.1:9/")
	t.Setenv("npm_config_fetch_retries", "0")
	corpus := t.TempDir()
	f := newFixture(t, corpus, "Good", 0)
	f.writeSource(t, fmt.Sprintf(store, "Good", ""), "v0.8.19+commit.7dd6d404")
	f.writeHistory(30)
	env := stagetest.IsolatedEnv(t, corpus)
	env.Jobs, env.Engines.SolcOptions.CacheDir = 1, t.TempDir()
	s := New()
	s.Budget, s.MinTxs = 20, 5
	for run := 1; run <= 2; run++ {
		if c := stagetest.Run(t, env, s); c.Ran != 1 || c.Failed != 1 {
			t.Fatalf("run %d: want the unit run and failed, got %+v", run, c)
		}
	}
	errs := stagetest.Rows(t, env, schemas.Errors)
	if len(errs) != 1 || errs[0].Class != failure.Network.String() || !errs[0].Retriable || !strings.Contains(errs[0].Message, "install") {
		t.Fatalf("want one retriable network error row about the install, got %+v", errs)
	}
	rows := stagetest.Rows(t, env, schemas.Reproducibility)
	if len(rows) != 1 || rows[0].ReasonClass != failure.Network.String() {
		t.Fatalf("want the reason class network, got %+v", rows)
	}
}

// TestUnitsGroupByCompiler: each unit names its compiler as its affinity, so
// the runner compiles the contracts of one version on one warm worker.
func TestUnitsGroupByCompiler(t *testing.T) {
	env := stagetest.IsolatedEnv(t, stagetest.DemoCorpus)
	units, err := New().Plan(context.Background(), env)
	if err != nil || len(units) == 0 {
		t.Fatalf("plan: %d units, %v", len(units), err)
	}
	versions := map[string]bool{}
	for _, u := range units {
		want := u.Payload.(unit).rec.Source.CompilerVersion
		if u.Affinity == "" || u.Affinity != want {
			t.Errorf("%s: affinity %q, want its compiler %q", u.ID, u.Affinity, want)
		}
		versions[u.Affinity] = true
	}
	if len(versions) < 2 {
		t.Errorf("the demo corpus should hold two compilers, got %v", versions)
	}
}
