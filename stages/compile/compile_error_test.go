package compile

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/solbehave/solbehave/internal/regen"
	"github.com/solbehave/solbehave/internal/regen/regentest"
	"github.com/solbehave/solbehave/internal/solc"
	"github.com/solbehave/solbehave/schemas"
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

// TestSamplesRecordTheirWorkersAge: one unit's failing samples compile one
// after another on one worker (a failing compile has no interface check),
// so each records the worker's age for the cost projection: a start (youth
// 0), or youth 1/n with n one more than the sample before's. Every compile
// runs on a worker: no output cache answers it.
func TestSamplesRecordTheirWorkersAge(t *testing.T) {
	t.Setenv(solc.CompileCacheEnv, "")
	rows := compiledAlone(t, "mutant:"+regen.CompileErrorVariant)
	prev := -1.0
	for _, r := range rows {
		n := workerAge(t, r)
		if prev >= 0 && n != prev+1 {
			t.Errorf("sample %d compiled on a worker that had served %g compiles, the sample before on one that had served %g", r.Sample, n, prev)
		}
		prev = n
	}
}

// TestCompilingSamplesLeaveTheOriginalOut: the first sample that compiles
// has the original compiled for the interface check, once per unit; that
// compile is not the sample's, so each compiling sample still records one
// compile's figures (or none, where the compile cache held its outcome).
func TestCompilingSamplesLeaveTheOriginalOut(t *testing.T) {
	ran := 0
	for _, r := range compiledAlone(t, "mutant") {
		if !r.CompiledRaw {
			t.Errorf("sample %d: %s", r.Sample, r.Error)
		}
		if r.CompileSolcStarts > 0 || r.CompileSolcYouth > 0 {
			workerAge(t, r)
			ran++
		}
	}
	if ran == 0 {
		t.Error("every sample's compile came from the cache: no figures to check")
	}
}

// compiledAlone compiles 4 samples of the named generator on Vault, one
// unit with nothing beside it, and returns their rows in sample order.
func compiledAlone(t *testing.T, generator string) []schemas.Sample {
	t.Helper()
	env, o, sk := skeletonOf(t, "Vault")
	g, err := regen.New(generator, regen.Config{MutationRate: 0.3})
	if err != nil {
		t.Fatal(err)
	}
	regentest.Generate(t, env, o, sk, g, 4, nil)
	_, rows := compileAll(t, env, New())
	if len(rows) != 4 {
		t.Fatalf("%d samples, want 4", len(rows))
	}
	slices.SortFunc(rows, func(a, b schemas.Sample) int { return cmp.Compare(a.Sample, b.Sample) })
	return rows
}

// workerAge is how many compiles the worker that compiled the sample had
// served before (0: started for it), checking the row records one compile.
func workerAge(t *testing.T, r schemas.Sample) float64 {
	t.Helper()
	switch {
	case r.CompileSolcStarts == 1 && r.CompileSolcYouth == 0:
		return 0
	case r.CompileSolcStarts == 0 && r.CompileSolcYouth > 0:
		n := math.Round(1 / r.CompileSolcYouth)
		if math.Abs(1/n-r.CompileSolcYouth) > 1e-9 {
			t.Errorf("sample %d: youth %g is not 1/n", r.Sample, r.CompileSolcYouth)
		}
		return n
	}
	t.Errorf("sample %d: %d starts, youth %g: not one compile's", r.Sample, r.CompileSolcStarts, r.CompileSolcYouth)
	return -1
}
