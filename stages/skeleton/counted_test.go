package skeleton

import (
	"testing"

	"github.com/solbehave/solbehave/internal/regen/regentest"
	"github.com/solbehave/solbehave/internal/skeleton"
	"github.com/solbehave/solbehave/internal/soltext"
	"github.com/solbehave/solbehave/internal/stagetest"
	"github.com/solbehave/solbehave/schemas"
)

// --regenerate counted leaves holes only for the functions the paper's size
// count counts: HarborToken's skeleton has as many holes as its chain count
// (the chain scope has more: constructors, views, pure helpers), every
// hole is a non-trivial function.
func TestCountedScopeRegeneratesTheCountedFunctions(t *testing.T) {
	env := regentest.Env(t, stagetest.DemoCorpus)
	harbor := regentest.Keep(t, env, "HarborToken")[0]
	counted, err := soltext.ChainCount(harbor.Record.Files.Files, "HarborToken")
	if err != nil {
		t.Fatal(err)
	}
	holes := func(scope string) []schemas.Skeleton {
		s := New()
		s.Regenerate = scope
		if c := stagetest.Run(t, env, s); c.Failed != 0 {
			t.Fatalf("--regenerate %s: %+v", scope, c)
		}
		rows := stagetest.Rows(t, env, schemas.Skeletons)
		if len(rows) == 0 || rows[0].Regenerate != scope {
			t.Fatalf("--regenerate %s: %d rows", scope, len(rows))
		}
		return rows
	}
	chainRows := holes(skeleton.ScopeChain)
	rows := holes(skeleton.ScopeCounted)
	if n := rows[0].NFunctions; n != int64(counted) || n != rows[0].NNontrivial || n >= chainRows[0].NFunctions {
		t.Errorf("counted: %d holes (%d non-trivial), want the chain count %d, fewer than the chain scope's %d",
			n, rows[0].NNontrivial, counted, chainRows[0].NFunctions)
	}
	t.Logf("HarborToken: %d holes under chain, %d under counted", chainRows[0].NFunctions, rows[0].NFunctions)
}
