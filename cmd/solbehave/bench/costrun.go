package bench

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spf13/pflag"

	"github.com/solbehave/solbehave/cmd/solbehave/stagelist"
	"github.com/solbehave/solbehave/internal/cpuclock"
	"github.com/solbehave/solbehave/internal/etherscan"
	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/pipeline"
)

// unitCPU is the CPU one unit of a stage took (treeCPU around Stage.Run)
// and the solc workers it started (each a compiler load and warm-up).
type unitCPU struct {
	Stage, Unit, Contract string
	CPU                   time.Duration
	Starts                int64
}

// costRun is what the pipeline at the paper's parameters cost on a corpus:
// every unit's CPU, each stage's whole CPU (planning and writing included),
// and the scratch data folder its rows are in.
type costRun struct {
	units    []unitCPU
	stageCPU map[string]time.Duration
	stages   []string // in the order they ran
	data     string
	corpus   string
	args     []string // the `solbehave run` flags it ran with
}

// timedStage runs a stage through the runner, recording each unit's CPU;
// keep, when set, chooses the planned units that run at all.
type timedStage struct {
	pipeline.Stage
	keep func(pipeline.Unit) bool
	mu   *sync.Mutex
	log  *[]unitCPU
}

func (s timedStage) Plan(ctx context.Context, env *pipeline.Env) ([]pipeline.Unit, error) {
	units, err := s.Stage.Plan(ctx, env)
	if err != nil || s.keep == nil {
		return units, err
	}
	var kept []pipeline.Unit
	for _, u := range units {
		if s.keep(u) {
			kept = append(kept, u)
		}
	}
	return kept, nil
}

func (s timedStage) Run(ctx context.Context, env *pipeline.Env, u pipeline.Unit) (*pipeline.Output, error) {
	solc := env.Engines.Solc()
	starts, start := solc.Started(), cpuclock.Tree()
	out, err := s.Stage.Run(ctx, env, u)
	cpu := cpuclock.Tree() - start
	s.mu.Lock()
	*s.log = append(*s.log, unitCPU{Stage: s.Name(), Unit: u.ID, Contract: u.Contract, CPU: cpu, Starts: solc.Started() - starts})
	s.mu.Unlock()
	return out, err
}

// costStages are the stages the cost run times, in pipeline order: all but
// the report (generation is the mutant generator: the paper's is an LLM,
// costed apart).
func costStages() []pipeline.Stage {
	return slices.DeleteFunc(stagelist.All(), func(s pipeline.Stage) bool { return s.Name() == "report" })
}

// costArgs are the `solbehave run` flags of the cost run: the paper's
// parameters (every stage's default) with k mutant samples, no annotations,
// and whatever the configuration adds (the smoke run's small budgets).
func costArgs(cfg ProjectionConfig) []string {
	args := []string{"--generator", "mutant", "--samples", strconv.Itoa(cfg.Samples), "--dcr-annotations", ""}
	return append(args, cfg.Args...)
}

// measureCosts runs the stages over the corpus in a scratch folder, one unit
// at a time (so a unit's CPU is its own), each stage forced.
func (b *bencher) measureCosts(ctx context.Context, entries []etherscan.Entry) (*costRun, error) {
	scratch, err := os.MkdirTemp("", "solbench-costs-")
	if err != nil {
		return nil, err
	}
	run := &costRun{stageCPU: map[string]time.Duration{}, data: filepath.Join(scratch, "data"), args: costArgs(b.cfg.Projection)}
	if run.corpus, err = b.costCorpus(scratch, entries); err != nil {
		return run, err
	}
	stages := costStages()
	fs := pflag.NewFlagSet("cost", pflag.ContinueOnError)
	for _, s := range stages {
		s.BindFlags(fs)
	}
	if err := fs.Parse(run.args); err != nil {
		return run, fmt.Errorf("bench: cost run flags %v: %w", run.args, err)
	}
	env := &pipeline.Env{Corpus: run.corpus, Data: run.data, Seed: 42, Jobs: 1,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Out: io.Discard,
		Warehouse: warehouse.New(filepath.Join(run.data, "warehouse")), Engines: &pipeline.Engines{}}
	defer env.Engines.Close()
	runner := &pipeline.Runner{Env: env, Force: true}
	var mu sync.Mutex
	for _, s := range stages {
		t := timedStage{Stage: s, mu: &mu, log: &run.units}
		if s.Name() == "vuln" {
			t.keep = firstSamples(b.cfg.Projection.VulnSamples)
		}
		start := cpuclock.Tree()
		c, err := runner.Run(ctx, t)
		run.stageCPU[s.Name()] = cpuclock.Tree() - start
		run.stages = append(run.stages, s.Name())
		fmt.Fprintf(b.log, "bench: cost run: %s %d unit(s), %d failed, %.1f CPU-s\n", s.Name(), c.Ran, c.Failed, run.stageCPU[s.Name()].Seconds())
		if err != nil {
			return run, fmt.Errorf("bench: cost run: %s: %w", s.Name(), err)
		}
	}
	return run, nil
}

// firstSamples keeps the vuln units of samples 0..n-1 (no originals: the
// projection costs samples, and an original costs as much as a sample).
func firstSamples(n int) func(pipeline.Unit) bool {
	return func(u pipeline.Unit) bool {
		parts := strings.Split(u.ID, "/")
		if len(parts) != 3 {
			return false
		}
		k, err := strconv.Atoi(parts[2])
		return err == nil && k < n
	}
}

// costCorpus is the corpus the cost run reads: the bench's own when it
// measures every contract, else a scratch copy of the chosen ones.
func (b *bencher) costCorpus(scratch string, entries []etherscan.Entry) (string, error) {
	all, err := etherscan.ListCorpus(b.cfg.Corpus)
	if err != nil || len(all) == len(entries) {
		return b.cfg.Corpus, err
	}
	dir := filepath.Join(scratch, "corpus")
	for _, e := range entries {
		if err := copyFolder(filepath.Join(b.cfg.Corpus, e.ID), filepath.Join(dir, e.ID)); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// copyFolder copies a contract folder's files (it holds no subfolders).
func copyFolder(src, dst string) error {
	items, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	for _, it := range items {
		if it.IsDir() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, it.Name()))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dst, it.Name()), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Close removes the cost run's scratch folder.
func (r *costRun) Close() {
	if r != nil && r.data != "" {
		os.RemoveAll(filepath.Dir(r.data))
	}
}
