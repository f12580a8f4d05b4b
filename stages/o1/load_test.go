package o1

import (
	"fmt"
	"os"
	"os/exec"
	"reflect"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/solbehave/solbehave/internal/stagetest"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

// loadCalls keeps the load test's campaigns short: a verdict may not depend
// on the machine at any budget.
const loadCalls = 1500

// referenceEnv writes two reference samples of each contract as O1's
// inputs: equivalent variants whose code differs from the original's, so
// that O1 fuzzes them (the original's own code is not fuzzed).
func referenceEnv(t *testing.T, names ...string) *pipeline.Env {
	t.Helper()
	env := stagetest.NewEnv(t, stagetest.DemoCorpus)
	for _, name := range names {
		rec := loadDemo(t, name)
		origID, variantID := compile(t, env, rec, nil), equivalentVariant(t, env, rec)
		stagetest.WriteInputs(t, env, rec.Entry.ID, origID, []schemas.Sample{
			stagetest.Sample("reference", 0, variantID, ""), stagetest.Sample("reference", 1, variantID, ""),
		})
	}
	return env
}

// referenceRows runs O1 and returns its rows, elapsed_ms cleared.
func referenceRows(t *testing.T, env *pipeline.Env) ([]schemas.FuzzResult, []schemas.FuzzCounterexample) {
	t.Helper()
	s := New()
	s.Calls = loadCalls
	stagetest.RunStage(t, env, s)
	results, cxs := readResults(t, env)
	for i := range results {
		results[i].ElapsedMS = 0
	}
	return results, cxs
}

// TestReferenceUnderLoad: O1 on reference samples of demo contracts, run
// on a starved process (two OS threads for Go, busy processes beside it,
// and three 10.5 s stalls during fuzzing, as a machine too loaded to schedule the
// process gives), calls no function non-equivalent and writes the same rows
// as an unloaded run with the same seed.
func TestReferenceUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the machine for about 50 s")
	}
	contracts := []string{"GiftToken", "TimedCrowdsale"}
	idle, idleCx := referenceRows(t, referenceEnv(t, contracts...))
	if len(idle) == 0 {
		t.Fatal("no fuzz_results rows")
	}
	env := referenceEnv(t, contracts...)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	busyProcesses(t, 2)
	stallProcess(t, 500*time.Millisecond, 10500*time.Millisecond, 3)
	loaded, loadedCx := referenceRows(t, env)
	for _, r := range loaded {
		if r.Calls == 0 {
			t.Errorf("%s sample %d, %s: not fuzzed (stop %s): the test needs campaigns", r.ContractID, r.Sample, r.Signature, r.StopReason)
		}
		if !r.Equivalent {
			t.Errorf("under load, reference sample %d of %s is non-equivalent on %s (stop %s after %d calls)",
				r.Sample, r.ContractID, r.Signature, r.StopReason, r.Calls)
		}
	}
	if !reflect.DeepEqual(idle, loaded) || !reflect.DeepEqual(idleCx, loadedCx) {
		t.Errorf("rows under load differ from the unloaded run:\nidle   %+v\nloaded %+v", idle, loaded)
	}
}

// busyProcesses starts n processes that spin until the test ends.
func busyProcesses(t *testing.T, n int) {
	for range n {
		cmd := exec.Command("sh", "-c", "while :; do :; done")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			cmd.Process.Kill()
			cmd.Wait()
		})
	}
}

// stallProcess has a helper stop this process n times, the first after a
// delay, and let it go on after d each time: for d it gets no CPU at all.
// Each stall that lands in a call outlasts a per-call clock of 10 s; several
// make it near certain that one does.
func stallProcess(t *testing.T, after, d time.Duration, n int) {
	pid := os.Getpid()
	script := fmt.Sprintf("sleep %g; for i in $(seq %d); do kill -STOP %d; sleep %g; kill -CONT %d; sleep 0.3; done",
		after.Seconds(), n, pid, d.Seconds(), pid)
	cmd := exec.Command("sh", "-c", script)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // not stopped or killed with the test's group
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Wait() })
}
