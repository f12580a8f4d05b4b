package o1

import (
	"strings"
	"testing"

	"github.com/solbehave/solbehave/internal/stagetest"
	"github.com/solbehave/solbehave/schemas"
)

// TestMissingFunctionIsNonEquivalent: a Vault sample without withdraw, and
// one whose withdraw takes uint128 (another selector), are non-equivalent
// on withdraw with stop reason missing and no call, although the
// original's withdraw reverts from a fresh deployment as a call to an
// absent function does; their other functions are fuzzed as usual.
func TestMissingFunctionIsNonEquivalent(t *testing.T) {
	env := stagetest.NewEnv(t, stagetest.DemoCorpus)
	rec := loadDemo(t, "Vault")
	origID := compile(t, env, rec, nil)
	withdraw := "    /// @notice Withdraw `amount` from the balance.\n    function withdraw(uint256 amount) public {\n" + stagetest.VaultWithdraw + "\n    }\n"
	deletedID := compile(t, env, rec, func(src string) string { return strings.Replace(src, withdraw, "", 1) })
	narrowedID := compile(t, env, rec, func(src string) string {
		return strings.Replace(src, "function withdraw(uint256 amount)", "function withdraw(uint128 amount)", 1)
	})
	stagetest.WriteInputs(t, env, rec.Entry.ID, origID, []schemas.Sample{
		stagetest.Sample("import:deleted", 0, deletedID, ""), stagetest.Sample("import:narrowed", 0, narrowedID, "")})
	s := New()
	s.Calls = 2000
	stagetest.RunStage(t, env, s)
	results, _ := readResults(t, env)
	if len(results) != 6 {
		t.Fatalf("%d fuzz_results rows, want 6 (2 samples x initialize, deposit, withdraw)", len(results))
	}
	for _, r := range results {
		if r.Function != "withdraw" {
			if !r.Equivalent {
				t.Errorf("%s %s: not equivalent (%s)", r.Model, r.Signature, r.StopReason)
			}
			continue
		}
		if r.Equivalent || r.StopReason != schemas.StopMissing || r.Calls != 0 {
			t.Errorf("%s %s: equivalent=%v stop=%s calls=%d, want non-equivalent, missing, no call",
				r.Model, r.Signature, r.Equivalent, r.StopReason, r.Calls)
		}
	}
}
