package o2

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"

	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/stagetest"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

// vaultCall is one synthetic transaction of a Vault history.
type vaultCall struct {
	from   string
	method string
	amount int64 // deposit/withdraw argument
}

var (
	alice = "0x00000000000000000000000000000000000a11ce"
	bob   = "0x0000000000000000000000000000000000000b0b"
	carol = "0x00000000000000000000000000000000000ca201"
)

// Histories, after the recorded creation.
var (
	initThenOverWithdraw = []vaultCall{
		{alice, "deposit", 100}, {bob, "initialize", 0}, {alice, "deposit", 50},
		{alice, "withdraw", 20}, {carol, "withdraw", 500}, {bob, "deposit", 1},
	}
	neverInitWithWithdraws = []vaultCall{
		{alice, "deposit", 100}, {alice, "deposit", 50}, {alice, "withdraw", 20},
		{carol, "withdraw", 500}, {bob, "deposit", 1},
	}
	neverInitDepositsOnly = []vaultCall{
		{alice, "deposit", 100}, {bob, "deposit", 50}, {carol, "deposit", 7},
	}
)

// vaultCorpus writes a one-contract corpus in Etherscan's format: the demo
// Vault's source and creation, followed by the given calls.
func vaultCorpus(t *testing.T, calls []vaultCall) string {
	t.Helper()
	demo := filepath.Join(stagetest.DemoCorpus, stagetest.VaultID)
	src, err := os.ReadFile(filepath.Join(demo, "getsourcecode.json"))
	if err != nil {
		t.Fatal(err)
	}
	var recorded struct {
		Result []map[string]any `json:"result"`
	}
	raw, err := os.ReadFile(filepath.Join(demo, "txlist.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &recorded); err != nil {
		t.Fatal(err)
	}
	creation := recorded.Result[0]
	vaultABI := parseVaultABI(t, src)
	txs := []map[string]any{creation}
	block, _ := new(big.Int).SetString(creation["blockNumber"].(string), 10)
	stamp, _ := new(big.Int).SetString(creation["timeStamp"].(string), 10)
	for i, c := range calls {
		txs = append(txs, synthTx(t, vaultABI, c, i, block.Int64()+int64(10*(i+1)), stamp.Int64()+int64(150*(i+1))))
	}
	dir := filepath.Join(t.TempDir(), "corpus")
	folder := filepath.Join(dir, stagetest.VaultID)
	if err := os.MkdirAll(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	list, _ := json.MarshalIndent(map[string]any{"status": "1", "message": "OK", "result": txs}, "", " ")
	for name, body := range map[string][]byte{"getsourcecode.json": src, "txlist.json": list} {
		if err := os.WriteFile(filepath.Join(folder, name), body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func parseVaultABI(t *testing.T, getsourcecode []byte) abi.ABI {
	var env struct {
		Result []struct{ ABI string } `json:"result"`
	}
	if err := json.Unmarshal(getsourcecode, &env); err != nil {
		t.Fatal(err)
	}
	a, err := abi.JSON(strings.NewReader(env.Result[0].ABI))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// synthTx is a transaction record as Etherscan's txlist gives it. The
// record's own status is not what O2 compares (it compares the original's
// replay with the sample's), so every call is recorded as a success.
func synthTx(t *testing.T, a abi.ABI, c vaultCall, i int, block, stamp int64) map[string]any {
	var args []any
	if c.method != "initialize" {
		args = append(args, big.NewInt(c.amount))
	}
	input, err := a.Pack(c.method, args...)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]any{
		"blockNumber": fmt.Sprint(block), "timeStamp": fmt.Sprint(stamp),
		"hash": fmt.Sprintf("0x%064x", i+1), "nonce": fmt.Sprint(i), "blockHash": fmt.Sprintf("0x%064x", block),
		"transactionIndex": "0", "from": c.from, "to": strings.ToLower(stagetest.VaultID[len("Vault_"):]),
		"value": "0", "gas": "100000", "gasPrice": "1000000000", "isError": "0", "txreceipt_status": "1",
		"input": "0x" + common.Bytes2Hex(input), "contractAddress": "", "cumulativeGasUsed": "50000",
		"gasUsed": "30000", "confirmations": "1000", "methodId": "0x" + common.Bytes2Hex(input[:4]), "functionName": "",
	}
}

// vaultSamples compiles the reference, the two hand-mutated withdraws and an
// unmutated mutant for rec, and writes them as samples rows.
func vaultSamples(t *testing.T, env *pipeline.Env, rec *deploy.Record) {
	t.Helper()
	origID, _ := stagetest.Compile(t, env, rec, nil)
	mutate := func(body string) string {
		return stagetest.CompileReplacing(t, env, rec, stagetest.VaultWithdraw, body)
	}
	mutation := func(op, detail string) string {
		return stagetest.JSON([]map[string]string{{"function": "withdraw", "operator": op, "detail": detail}})
	}
	stagetest.WriteInputs(t, env, stagetest.VaultID, origID, []schemas.Sample{
		stagetest.Sample("reference", 0, origID, ""),
		stagetest.Sample("mutant", 0, mutate(stagetest.Figure1Withdraw), mutation("figure1_withdraw", stagetest.Figure1Withdraw)),
		stagetest.Sample("mutant", 1, mutate(stagetest.NoBalanceCheckWithdraw), mutation("drop_require", "require(balance >= amount)")),
		stagetest.Sample("mutant", 2, origID, "[]"),
	})
}

// divergences maps each sample ("model/k") to the steps where its status
// disagreed with the original's, as "step:function:ref->sample".
func divergences(t *testing.T, env *pipeline.Env) map[string][]string {
	db := stagetest.OpenViews(t, env)
	out := map[string][]string{}
	for _, r := range stagetest.QueryMaps(t, db, `SELECT model, sample, step, function, status_ref, status_sample
		FROM replay_calls WHERE oracle = 'O2' AND NOT status_match ORDER BY model, sample, step`) {
		key := fmt.Sprintf("%s/%d", r["model"], r["sample"])
		out[key] = append(out[key], fmt.Sprintf("%d:%s:%s->%s", r["step"], r["function"], r["status_ref"], r["status_sample"]))
	}
	return out
}

func runVault(t *testing.T, calls []vaultCall) *pipeline.Env {
	t.Helper()
	corpus := vaultCorpus(t, calls)
	env := stagetest.NewEnv(t, corpus)
	recs := stagetest.LoadRecords(t, corpus, 1000)
	if len(recs[0].Txs) != len(calls) {
		t.Fatalf("record holds %d calls, want %d", len(recs[0].Txs), len(calls))
	}
	vaultSamples(t, env, recs[0])
	stagetest.RunStage(t, env, New())
	return env
}

func checkDivergences(t *testing.T, got map[string][]string, want map[string][]string) {
	t.Helper()
	if stagetest.JSON(got) != stagetest.JSON(want) {
		t.Errorf("divergent calls per sample:\n got %v\nwant %v", got, want)
	}
}

// With initialize and then an over-withdrawal in the history, O2 flags both
// faulty withdraws exactly there; the in-balance withdraw before it agrees.
func TestVaultInitializeThenOverWithdrawalIsFlagged(t *testing.T) {
	env := runVault(t, initThenOverWithdraw)
	checkDivergences(t, divergences(t, env), map[string][]string{
		"mutant/0": {"4:withdraw:revert->success"},
		"mutant/1": {"4:withdraw:revert->success"},
	})
	db := stagetest.OpenViews(t, env)
	kills := stagetest.QueryMaps(t, db, `SELECT operator, compared, exposed FROM mutant_kills WHERE oracle = 'O2' ORDER BY operator`)
	if want := `[{"compared":1,"exposed":0,"operator":"(none)"},{"compared":1,"exposed":1,"operator":"drop_require"},{"compared":1,"exposed":1,"operator":"figure1_withdraw"}]`; stagetest.JSON(kills) != want {
		t.Errorf("mutant_kills = %s, want %s", stagetest.JSON(kills), want)
	}
	fig := stagetest.QueryMaps(t, db, `SELECT model, n, divergent, status_match_min_rate FROM fig4_replay WHERE oracle = 'O2' ORDER BY model`)
	if want := `[{"divergent":1,"model":"mutant","n":1,"status_match_min_rate":0.8333333333333334},{"divergent":0,"model":"reference","n":1,"status_match_min_rate":1}]`; stagetest.JSON(fig) != want {
		t.Errorf("fig4_replay = %s, want %s", stagetest.JSON(fig), want)
	}
	// The wrapped balance shows in the last view snapshot of both mutants only.
	snaps := stagetest.QueryMaps(t, db, `SELECT model, sample, after_calls, value_ref, value_sample FROM view_snapshots
		WHERE function = 'balance' AND NOT match ORDER BY model, sample, after_calls`)
	if len(snaps) != 2 || snaps[0]["after_calls"].(int64) != int64(len(initThenOverWithdraw)) || snaps[0]["value_ref"] != "31" {
		t.Errorf("balance snapshots that differ: %v", snaps)
	}
}

// Never initialized, the vault rejects every withdraw. The missing balance
// check is then out of reach: O2 is bounded by its history. Figure 1's
// withdraw is not, though: its silent no-op succeeds where the original
// reverts, so any withdraw before initialize exposes it.
func TestVaultWithoutInitializeIsBoundedByItsHistory(t *testing.T) {
	env := runVault(t, neverInitWithWithdraws)
	checkDivergences(t, divergences(t, env), map[string][]string{
		"mutant/0": {"2:withdraw:revert->success", "3:withdraw:revert->success"},
	})
	env = runVault(t, neverInitDepositsOnly)
	checkDivergences(t, divergences(t, env), map[string][]string{})
	db := stagetest.OpenViews(t, env)
	if n := stagetest.QueryInt(t, db, `SELECT sum(divergent) FROM fig4_replay WHERE oracle = 'O2'`); n != 0 {
		t.Errorf("%d divergent contracts on a deposits-only history", n)
	}
	if n := stagetest.QueryInt(t, db, `SELECT count(*) FROM coverage WHERE oracle = 'O2' AND calls > 0`); n != 1 {
		t.Errorf("coverage: %d functions called, want deposit only", n)
	}
}

// The demo corpus's own Vault history never calls initialize but holds
// withdraws (all reverting): Figure 1's silent no-op diverges on exactly
// those, the missing balance check on none.
func TestVaultDemoHistory(t *testing.T) {
	env := stagetest.NewEnv(t, stagetest.DemoCorpus)
	recs := stagetest.LoadRecords(t, stagetest.DemoCorpus, 1000, stagetest.VaultID)
	vaultSamples(t, env, recs[0])
	stagetest.RunStage(t, env, New())
	withdraws := 0
	for _, tx := range recs[0].Txs {
		if hex.EncodeToString(tx.Input[:min(4, len(tx.Input))]) == "2e1a7d4d" {
			withdraws++
		}
	}
	got := divergences(t, env)
	if len(got) != 1 || len(got["mutant/0"]) != withdraws || withdraws == 0 {
		t.Fatalf("want the %d withdraws of mutant/0 only, got %v", withdraws, got)
	}
	for _, d := range got["mutant/0"] {
		if !strings.HasSuffix(d, ":withdraw:revert->success") {
			t.Errorf("unexpected divergence %s", d)
		}
	}
}
