package o3

import (
	"encoding/json"
	"fmt"
	"math/big"
	"testing"

	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/stagetest"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

// A stricter check: it refuses to empty the vault, which the original allows.
const strictWithdraw = `        require(initialized);
        require(balance > amount);
        balance -= amount;`

// vaultSamples compiles the reference and the three withdraw mutants (plus
// an unmutated one) and writes them as samples rows.
func vaultSamples(t *testing.T, env *pipeline.Env, rec *deploy.Record) []schemas.Sample {
	t.Helper()
	origID, _ := stagetest.Compile(t, env, rec, nil)
	mutate := func(body string) string {
		return stagetest.CompileReplacing(t, env, rec, stagetest.VaultWithdraw, body)
	}
	mutation := func(op string) string {
		return stagetest.JSON([]map[string]string{{"function": "withdraw", "operator": op, "detail": op}})
	}
	samples := []schemas.Sample{
		stagetest.Sample("reference", 0, origID, ""),
		stagetest.Sample("mutant", 0, mutate(stagetest.Figure1Withdraw), mutation("figure1_withdraw")),
		stagetest.Sample("mutant", 1, mutate(stagetest.NoBalanceCheckWithdraw), mutation("drop_require")),
		stagetest.Sample("mutant", 2, mutate(strictWithdraw), mutation("boundary")),
		stagetest.Sample("mutant", 3, origID, "[]"),
	}
	stagetest.WriteInputs(t, env, stagetest.VaultID, origID, samples)
	return samples
}

// flagged maps each oracle to the samples ("model/k") it finds divergent.
func flagged(t *testing.T, env *pipeline.Env) map[string][]string {
	db := stagetest.OpenViews(t, env)
	out := map[string][]string{}
	for _, r := range stagetest.QueryMaps(t, db, `SELECT oracle, model, sample FROM sample_verdicts WHERE divergent ORDER BY ALL`) {
		o := r["oracle"].(string)
		out[o] = append(out[o], fmt.Sprintf("%s/%d", r["model"], r["sample"]))
	}
	return out
}

// The Figure 1 scenario with the demo history, which never calls
// initialize. O2 can only see Figure 1's silent no-op (every recorded
// withdraw reverts on the original). Algorithm 1 initializes the vault, then
// tries an over-withdrawal the original rejects: O4 replays that very probe
// and flags both mutants without a balance check there. O3 replays only what
// the original accepted, so it cannot expose a missing check (on accepted
// calls the mutants do exactly what the original does); it exposes the
// stricter check instead, on a withdrawal that empties the vault after
// initialize, a state O2's history never reaches.
func TestVaultFigure1(t *testing.T) {
	env := stagetest.NewEnv(t, stagetest.DemoCorpus)
	rec := stagetest.LoadRecords(t, stagetest.DemoCorpus, 1000, stagetest.VaultID)[0]
	samples := vaultSamples(t, env, rec)
	_, out := stagetest.Compile(t, env, rec, nil)
	writeSequences(t, env, rec, out, 60, "static")
	writeO2(t, env, rec, out, samples)
	stagetest.RunStage(t, env, New())

	got := flagged(t, env)
	want := map[string][]string{"O2": {"mutant/0"}, "O3": {"mutant/2"}, "O4": {"mutant/0", "mutant/1"}}
	if stagetest.JSON(got) != stagetest.JSON(want) {
		t.Fatalf("divergent samples per oracle:\n got %v\nwant %v", got, want)
	}
	checkOverWithdrawalProbe(t, env)
	db := stagetest.OpenViews(t, env)
	kills := stagetest.QueryMaps(t, db, `SELECT oracle, operator, compared, exposed FROM mutant_kills WHERE oracle IN ('O3', 'O4') ORDER BY ALL`)
	if want := `[{"compared":1,"exposed":0,"operator":"(none)","oracle":"O3"},{"compared":1,"exposed":1,"operator":"boundary","oracle":"O3"},{"compared":1,"exposed":0,"operator":"drop_require","oracle":"O3"},{"compared":1,"exposed":0,"operator":"figure1_withdraw","oracle":"O3"},` +
		`{"compared":1,"exposed":0,"operator":"(none)","oracle":"O4"},{"compared":1,"exposed":0,"operator":"boundary","oracle":"O4"},{"compared":1,"exposed":1,"operator":"drop_require","oracle":"O4"},{"compared":1,"exposed":1,"operator":"figure1_withdraw","oracle":"O4"}]`; stagetest.JSON(kills) != want {
		t.Errorf("mutant_kills = %s\nwant %s", stagetest.JSON(kills), want)
	}
	fig := stagetest.QueryMaps(t, db, `SELECT oracle, model, graph_setting, n, divergent FROM fig4_replay WHERE model = 'mutant' ORDER BY oracle`)
	if want := `[{"divergent":1,"graph_setting":"","model":"mutant","n":1,"oracle":"O2"},{"divergent":1,"graph_setting":"fixed","model":"mutant","n":1,"oracle":"O3"},{"divergent":1,"graph_setting":"fixed","model":"mutant","n":1,"oracle":"O4"}]`; stagetest.JSON(fig) != want {
		t.Errorf("fig4_replay = %s", stagetest.JSON(fig))
	}
}

// checkOverWithdrawalProbe: the no-balance-check mutant's first O4
// divergence is a withdraw of more than the vault holds, after initialize,
// which the original rejected and the mutant executed.
func checkOverWithdrawalProbe(t *testing.T, env *pipeline.Env) {
	t.Helper()
	db := stagetest.OpenViews(t, env)
	first := stagetest.QueryMaps(t, db, `SELECT seq, tx_hash, function, status_ref, status_sample FROM replay_calls
		WHERE oracle = 'O4' AND model = 'mutant' AND sample = 1 AND NOT status_match ORDER BY seq, step LIMIT 1`)
	if len(first) != 1 || first[0]["function"] != "withdraw" || first[0]["status_ref"] != "revert" || first[0]["status_sample"] != "success" {
		t.Fatalf("first O4 divergence of mutant/1: %v", first)
	}
	// Rebuild the vault's balance from the kept calls before the probe.
	var seq, step, try int64
	fmt.Sscanf(first[0]["tx_hash"].(string), "seq%d/step%d/try%d", &seq, &step, &try)
	calls := stagetest.QueryMaps(t, db, `SELECT function, args, kept FROM sequence_calls
		WHERE seq = ? AND (step < ? OR (step = ? AND try <= ?)) ORDER BY step, try`, seq, step, step, try)
	initialized, balance := false, new(big.Int)
	for i, c := range calls {
		amount := new(big.Int)
		var args []string
		json.Unmarshal([]byte(c["args"].(string)), &args)
		if len(args) == 1 {
			amount.SetString(args[0], 10)
		}
		if i == len(calls)-1 {
			if c["function"] != "withdraw" || c["kept"] != false || !initialized || amount.Cmp(balance) <= 0 {
				t.Fatalf("probe withdraw(%s) with initialized=%v balance=%s: %v", amount, initialized, balance, c)
			}
			return
		}
		if c["kept"] != true {
			continue
		}
		switch c["function"] {
		case "initialize":
			initialized, balance = true, new(big.Int)
		case "deposit":
			balance.Add(balance, amount)
		case "withdraw":
			balance.Sub(balance, amount)
		}
	}
	t.Fatal("the probe is not among the sequence's calls")
}
