package o2

import (
	"testing"

	"github.com/solbehave/solbehave/internal/regen/regentest"
	"github.com/solbehave/solbehave/internal/stagetest"
)

// TestMultiFileBaseMutantIsCaught: a mutant whose one mutation sits in an
// inherited body in another file (BaseToken._transfer, in
// lib/fx/token/BaseToken.sol, without its zero-address check) diverges from
// the original exactly where the history transfers to the zero address;
// the reference of the whole chain agrees everywhere.
func TestMultiFileBaseMutantIsCaught(t *testing.T) {
	env, rec := stagetest.MultiFileEnv(t, 1000)
	regentest.MultiFileSamples(t, env, rec)
	stagetest.RunStage(t, env, New())
	checkDivergences(t, divergences(t, env), map[string][]string{"mutant/0": {"12:transfer:revert->success"}})
	db := stagetest.OpenViews(t, env)
	kills := stagetest.QueryMaps(t, db, `SELECT operator, compared, exposed FROM mutant_kills WHERE oracle = 'O2' ORDER BY operator`)
	if want := `[{"compared":1,"exposed":1,"operator":"drop_require"}]`; stagetest.JSON(kills) != want {
		t.Errorf("mutant_kills = %s, want %s", stagetest.JSON(kills), want)
	}
}
