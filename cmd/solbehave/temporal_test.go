package main

import (
	"bytes"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/solbehave/solbehave/pipeline/temporal"
)

// TestTemporal runs the pipeline as a Temporal workflow: a real embedded
// server (`solbehave temporal dev-server`, built on first use into
// $SOLBEHAVE_CACHE) and real worker processes, on the small corpus with the
// robustness tests' budgets. The warehouse must equal a local run's, also
// when a worker is SIGKILLed in the middle; injected faults must be retried
// (retriable) or recorded once as an error row (not retriable).
func TestTemporal(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds the binary and the Temporal dev server, and runs the pipeline three times on workers")
	}
	t.Parallel()
	// The reference ran the same binary as the workers.
	ref := smallReference(t)
	bin, corpus, want := ref.bin, ref.corpus, ref.digest
	addr := devServer(t, bin)

	t.Run("ThreeWorkers", func(t *testing.T) {
		for i := 0; i < 3; i++ {
			worker(t, bin, addr, "three", nil)
		}
		data := t.TempDir()
		if err := temporalRun(t, bin, addr, "three", corpus, data, pipelineArgs).Wait(); err != nil {
			t.Fatalf("run: %v", err)
		}
		if got := digest(t, data); got != want {
			t.Fatalf("temporal warehouse differs from the local run's:\n%s\nvs\n%s", got, want)
		}
	})

	t.Run("KilledWorker", func(t *testing.T) {
		workers := []*proc{worker(t, bin, addr, "killed", nil), worker(t, bin, addr, "killed", nil), worker(t, bin, addr, "killed", nil)}
		data := t.TempDir()
		run := temporalRun(t, bin, addr, "killed", corpus, data, pipelineArgs)
		// Kill the first worker to start an O2 unit, halfway down the
		// pipeline, so it dies holding work that the others must take over.
		victim := firstLine(t, workers, `msg="unit start" stage=o2 `, 5*time.Minute)
		victim.cmd.Process.Signal(syscall.SIGKILL)
		var others []*proc
		for _, w := range workers {
			if w != victim {
				others = append(others, w)
			}
		}
		if err := run.Wait(); err != nil {
			t.Fatalf("run after SIGKILL of a worker: %v", err)
		}
		if got := digest(t, data); got != want {
			t.Fatalf("warehouse after SIGKILL of a worker differs from the local run's:\n%s\nvs\n%s", got, want)
		}
		if !strings.Contains(others[0].output(), "attempt=2") && !strings.Contains(others[1].output(), "attempt=2") {
			t.Error("no unit of the killed worker ran again on the others (no attempt=2 in their logs)")
		}
	})

	t.Run("Faults", func(t *testing.T) {
		faults := "o2:Vault:retriable,verify:GiftToken:fatal"
		w := worker(t, bin, addr, "faults", []string{temporal.FaultEnv + "=" + faults})
		data := t.TempDir()
		err := temporalRun(t, bin, addr, "faults", corpus, data, append(pipelineArgs, "--until", "o2")).Wait()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 2 {
			t.Fatalf("want exit status 2 (a unit failed, the run completed), got %v", err)
		}
		errs, err := solbehave(t, "sql", "--data", data, "--format", "csv", "SELECT stage, split_part(unit, '_0x', 1), class, retriable FROM errors ORDER BY 1, 2")
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.TrimSpace(errs); got != "stage,\"split_part(unit, '_0x', 1)\",class,retriable\nverify,GiftToken,injected,false" {
			t.Errorf("want exactly one error row, the fatal fault's:\n%s", got)
		}
		if !regexp.MustCompile(`stage=o2 unit=Vault\S* attempt=2`).MatchString(w.output()) {
			t.Errorf("the retriable fault was not retried:\n%s", w.output())
		}
		rows, _ := solbehave(t, "sql", "--data", data, "--format", "csv",
			"SELECT count(*) FROM replay_calls WHERE oracle = 'O2' AND contract_id LIKE 'Vault_%'")
		if n := strings.TrimSpace(strings.TrimPrefix(rows, "count_star()")); n == "0" || n == "" {
			t.Errorf("the retried O2 unit of the Vault wrote no rows: %q", rows)
		}
	})
}

// firstLine waits for the first of the processes to print a line containing
// substr and returns it.
func firstLine(t *testing.T, ps []*proc, substr string, limit time.Duration) *proc {
	t.Helper()
	type hit struct {
		p    *proc
		line string
	}
	got := make(chan hit, len(ps))
	for _, p := range ps {
		go func(p *proc) {
			if line, ok := <-p.next(substr); ok {
				got <- hit{p, line}
			}
		}(p)
	}
	select {
	case h := <-got:
		t.Logf("worker %d: %s", h.p.cmd.Process.Pid, h.line)
		return h.p
	case <-time.After(limit):
		t.Fatalf("no worker printed %q within %s", substr, limit)
		return nil
	}
}

// devServer starts the dev server for a test.
func devServer(t *testing.T, bin string) string {
	t.Helper()
	start := time.Now()
	p, addr, err := startDevServer(bin, 20*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.stop)
	t.Logf("dev server %s ready after %s", addr, time.Since(start).Round(time.Second))
	return addr
}

// worker starts a worker for a test, stopped (and its log shown on failure) at its end.
func worker(t *testing.T, bin, addr, queue string, env []string) *proc {
	t.Helper()
	p, err := startWorker(bin, addr, queue, env)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		p.stop()
		if t.Failed() {
			t.Logf("worker %d log:\n%s", p.cmd.Process.Pid, p.output())
		}
	})
	return p
}

// runProc is a `solbehave run --engine temporal` process.
type runProc struct {
	cmd *exec.Cmd
	out bytes.Buffer
}

// temporalRun starts the run; a short heartbeat timeout makes a killed
// worker's units move on within seconds.
func temporalRun(t *testing.T, bin, addr, queue, corpus, data string, args []string) *runProc {
	t.Helper()
	r := &runProc{cmd: exec.Command(bin, append(append([]string{}, args...), "--engine", "temporal", "--temporal", addr,
		"--task-queue", queue, "--heartbeat", "5s", "--corpus", corpus, "--data", data)...)}
	r.cmd.Stdout, r.cmd.Stderr = &r.out, &r.out
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.cmd.Process.Kill() })
	return r
}

// Wait waits for the run; its error carries the run's output.
func (r *runProc) Wait() error {
	if err := r.cmd.Wait(); err != nil {
		return fmt.Errorf("%w\n%s", err, r.out.String())
	}
	return nil
}
