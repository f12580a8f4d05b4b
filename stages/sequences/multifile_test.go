package sequences

import (
	"testing"

	"github.com/solbehave/solbehave/internal/stagetest"
	"github.com/solbehave/solbehave/schemas"
)

// TestStageAcrossFiles: Algorithm 1 over the demo corpus's OpenZeppelin
// 5.0.1 token, a standard-JSON source whose ERC-20 core, Ownable and
// Pausable live in other files. The stage deploys it from its recorded
// input and keeps calls both to what the chain inherits from other files
// (ERC20.sol's approve) and to the target's own owner functions, whose
// guards (Ownable.sol's onlyOwner, Pausable.sol's whenPaused and
// whenNotPaused) live in other files: pause and unpause alternate.
func TestStageAcrossFiles(t *testing.T) {
	env := stagetest.NewEnv(t, stagetest.DemoCorpus)
	setup(t, env, nil, "HarborToken")
	s := New()
	s.Config.Budget = 60
	if c := stagetest.RunStage(t, env, s); c.Ran != 1 || c.Failed != 0 {
		t.Fatalf("counters %+v", c)
	}
	rows := stagetest.Rows(t, env, schemas.SequenceCalls)
	kept := map[string]int{}
	for _, r := range rows {
		if r.Kept {
			kept[r.Function]++
		}
	}
	for _, fn := range []string{"approve", "mint", "pause", "unpause"} {
		if kept[fn] == 0 {
			t.Errorf("no kept call to %s: kept %v", fn, kept)
		}
	}
	if got := stats(t, env); got["kept"].(int64) < 60 || got["contracts_without_sequence"] != int64(0) {
		t.Errorf("sequence_stats %v", got)
	}
}
