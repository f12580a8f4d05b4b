package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/solbehave/solbehave/cmd/solbehave/bench"
	"github.com/solbehave/solbehave/internal/inputfile"
)

// smallBudgetRun is `solbehave run` with small budgets (the paper's are for
// `make run`): the robustness and Temporal tests run it, and so does
// `bench --temporal`, whose figure is then the engines' cost per unit rather
// than the oracles' depth.
var smallBudgetRun = []string{"run", "--quiet", "--samples", "2", "--o2-budget", "100", "--o1-calls", "200",
	"--vuln-generations", "2", "--vuln-population", "4", "--o3-budget", "30"}

// temporalFigurePrefix names the figure group `bench --temporal` owns in latest.json.
const temporalFigurePrefix = "temporal_"

// benchTemporal times the whole pipeline on the local runner and on Temporal
// (an embedded dev server and 1..n worker processes, each with --jobs units at
// once) over the same corpus, and merges the figures into latest.json.
func benchTemporal(cmd *cobra.Command, g *globals, workers []int) error {
	bin, err := os.Executable()
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "solbehave-bench-temporal-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	log := cmd.ErrOrStderr()
	srv, addr, err := startDevServer(bin, 20*time.Minute)
	if err != nil {
		return err
	}
	defer srv.stop()
	command := "solbehave " + strings.Join(os.Args[1:], " ")
	run := func(name string, extra ...string) (float64, error) {
		args := append(append(append([]string{}, smallBudgetRun...), "--corpus", g.corpus, "--jobs", strconv.Itoa(g.jobs),
			"--data", filepath.Join(tmp, name)), extra...)
		start := time.Now()
		out, err := exec.CommandContext(cmd.Context(), bin, args...).CombinedOutput()
		if err != nil {
			return 0, fmt.Errorf("%s: %v\n%s", name, err, out)
		}
		sec := time.Since(start).Seconds()
		fmt.Fprintf(log, "bench --temporal: %s %.1fs\n", name, sec)
		return sec, nil
	}
	local, err := run("local")
	if err != nil {
		return err
	}
	units := countUnits(filepath.Join(tmp, "local", "state"))
	method := fmt.Sprintf("whole pipeline on %s (%d units; budgets %s), fresh data folder, one run each; workers run --jobs %d units at once, like the local runner",
		g.corpus, units, strings.Join(smallBudgetRun[2:], " "), g.jobs)
	figs := []bench.Figure{{Name: temporalFigurePrefix + "local_units_per_s", Value: round2(float64(units) / local),
		Unit: "units/s", Command: command, Method: "local runner: " + method}}
	var oneWorker float64
	for _, n := range workers {
		sec, err := runOnWorkers(bin, addr, n, g.jobs, func() (float64, error) {
			return run(fmt.Sprintf("temporal-%dw", n), "--engine", "temporal", "--temporal", addr, "--task-queue", fmt.Sprintf("bench-%dw", n))
		})
		if err != nil {
			return err
		}
		if n == 1 {
			oneWorker = sec
		}
		figs = append(figs, bench.Figure{Name: fmt.Sprintf("%sunits_per_s_%dw", temporalFigurePrefix, n), Value: round2(float64(units) / sec),
			Unit: "units/s", Command: command, Method: fmt.Sprintf("Temporal, %d worker process(es): %s", n, method)})
	}
	if oneWorker > 0 {
		figs = append(figs, bench.Figure{Name: bench.TemporalOverheadFigure, Value: round2((oneWorker - local) * 1000 / float64(units)),
			Unit: "ms/unit", Command: command, Method: "(wall time on Temporal with 1 worker - local wall time) / units, same parallelism: " + method})
	}
	printTemporalFigures(cmd.OutOrStdout(), figs)
	return mergeFigures(bench.ReportPath(g.data), command, figs)
}

// runOnWorkers starts n workers on their own queue, runs f, and stops them.
func runOnWorkers(bin, addr string, n, jobs int, f func() (float64, error)) (float64, error) {
	queue := fmt.Sprintf("bench-%dw", n)
	var ws []*proc
	defer func() {
		for _, w := range ws {
			w.stop()
		}
	}()
	for i := 0; i < n; i++ {
		w, err := startWorker(bin, addr, queue, nil, "--jobs", strconv.Itoa(jobs), "--quiet")
		if err != nil {
			return 0, err
		}
		ws = append(ws, w)
	}
	return f()
}

// countUnits counts the manifests a run wrote: one per unit.
func countUnits(state string) int {
	files, _ := inputfile.Glob(state, filepath.Join("*", "*.json"))
	return len(files)
}

func round2(v float64) float64 { return float64(int64(v*100+0.5)) / 100 }

func printTemporalFigures(w io.Writer, figs []bench.Figure) {
	for _, f := range figs {
		fmt.Fprintf(w, "%-34s %10.2f %s\n", f.Name, f.Value, f.Unit)
	}
}

// mergeFigures replaces the temporal figure group of latest.json, keeping
// everything else a full bench wrote there (or starting a report).
func mergeFigures(path, command string, figs []bench.Figure) error {
	rep, err := bench.ReadReport(path)
	if err != nil {
		rep = &bench.Report{Schema: bench.SchemaVersion, Created: time.Now().UTC(), Mode: "temporal", Command: command, Complete: true}
	}
	kept := rep.Figures[:0]
	for _, f := range rep.Figures {
		if !strings.HasPrefix(f.Name, temporalFigurePrefix) {
			kept = append(kept, f)
		}
	}
	rep.Figures = append(kept, figs...)
	if p := rep.Projection; p != nil {
		p.SetWall(p.Cores(), bench.TemporalOverheadMS(rep))
	}
	if err := rep.Write(path); err != nil {
		return err
	}
	fmt.Fprintln(os.Stderr, "wrote", path)
	return nil
}
