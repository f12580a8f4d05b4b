package compile

import (
	"strings"
	"testing"

	"github.com/solbehave/solbehave/internal/regen"
	"github.com/solbehave/solbehave/internal/regen/regentest"
)

// TestCompileErrorMutantsDoNotCompile: mutant:compile-error plants a type
// error in one body per sample, so every sample fails raw (no repair: a
// mutant is not an LLM's) with solc's TypeError, the operator in its
// mutations, and the compile's wall time recorded for the cost projection;
// plain mutants of the same seed compile.
func TestCompileErrorMutantsDoNotCompile(t *testing.T) {
	env, o, sk := skeletonOf(t, "Vault")
	broken, err := regen.New("mutant:"+regen.CompileErrorVariant, regen.Config{MutationRate: 0.3})
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := regen.New("mutant", regen.Config{MutationRate: 0.3})
	regentest.Generate(t, env, o, sk, broken, 3, nil)
	regentest.Generate(t, env, o, sk, plain, 3, nil)
	_, rows := compileAll(t, env, New())
	if len(rows) != 6 {
		t.Fatalf("%d sample rows, want 6", len(rows))
	}
	timed := false
	for _, r := range rows {
		if r.Model == "mutant" {
			if !r.CompiledRaw {
				t.Errorf("plain mutant %d: %q", r.Sample, r.Error)
			}
			continue
		}
		if r.CompiledRaw || r.CompiledRepaired || r.RepairAttempted || !strings.Contains(r.Error, "TypeError") ||
			!strings.Contains(r.Mutations, regen.PlantCompileError) || r.CompilerUsed == "" {
			t.Errorf("sample %d: raw=%v repair=%v error=%q mutations=%s", r.Sample, r.CompiledRaw, r.RepairAttempted, r.Error, r.Mutations)
		}
		timed = timed || r.CompileMS > 0
	}
	if !timed {
		t.Error("no compile of a failing sample has its wall time (compile_ms)")
	}
}
