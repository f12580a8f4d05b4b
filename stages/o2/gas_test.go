package o2

import (
	"testing"

	"github.com/solbehave/solbehave/internal/stagetest"
	"github.com/solbehave/solbehave/schemas"
)

const originalDeposit = `        balance += amount;`

// A deposit that burns gas on one path (amount 1) before doing what the
// original does: within 30M gas it agrees, within the recorded 100,000 it
// runs out.
const gassyDeposit = `        if (amount == 1) { uint256 x; for (uint256 i = 0; i < 6000; i++) { x += i; } require(x > 0); }
        balance += amount;`

// O2 keeps status as the criterion: a sample that only runs out of the
// recorded gas limit diverges, and the divergence is marked gas-limited;
// fig4_replay counts the contract as divergent and as gas-only.
func TestGasOnlyDivergenceStaysADivergenceAndIsMarked(t *testing.T) {
	corpus := vaultCorpus(t, initThenOverWithdraw) // its last call is bob's deposit(1)
	env := stagetest.NewEnv(t, corpus)
	rec := stagetest.LoadRecords(t, corpus, 1000)[0]
	origID, _ := stagetest.Compile(t, env, rec, nil)
	gassyID := stagetest.CompileReplacing(t, env, rec, originalDeposit, gassyDeposit)
	stagetest.WriteInputs(t, env, stagetest.VaultID, origID, []schemas.Sample{
		stagetest.Sample("reference", 0, origID, ""), stagetest.Sample("gassy", 0, gassyID, ""),
	})
	stagetest.RunStage(t, env, New())
	checkDivergences(t, divergences(t, env), map[string][]string{"gassy/0": {"5:deposit:success->revert"}})
	db := stagetest.OpenViews(t, env)
	if n := stagetest.QueryInt(t, db, `SELECT count(*) FROM replay_calls WHERE gas_limited`); n != 1 {
		t.Errorf("%d gas-limited calls, want the one deposit(1)", n)
	}
	fig := stagetest.QueryMaps(t, db, `SELECT model, divergent, divergent_gas_only FROM fig4_replay WHERE oracle = 'O2' ORDER BY model`)
	if want := `[{"divergent":1,"divergent_gas_only":1,"model":"gassy"},{"divergent":0,"divergent_gas_only":0,"model":"reference"}]`; stagetest.JSON(fig) != want {
		t.Errorf("fig4_replay = %s, want %s", stagetest.JSON(fig), want)
	}
}
