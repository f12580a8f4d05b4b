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

	"github.com/spf13/pflag"

	"github.com/solbehave/solbehave/cmd/solbehave/stagelist"
	"github.com/solbehave/solbehave/internal/cpuclock"
	"github.com/solbehave/solbehave/internal/etherscan"
	"github.com/solbehave/solbehave/internal/projection"
	"github.com/solbehave/solbehave/internal/regen"
	"github.com/solbehave/solbehave/internal/views"
	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/pipeline"
)

// ProjectionConfig is the cost run behind the projection.
type ProjectionConfig struct {
	Samples     int      // k mutant samples per kept contract (0: no projection)
	VulnSamples int      // samples per kept contract the vuln stage analyses (0: none)
	Only        bool     // measure the projection alone, not the engines
	Cores       []int    // core counts the wall time is projected on
	Args        []string // further `solbehave run` flags (the smoke bench's small budgets)
}

// costRun is the pipeline at the paper's parameters on a corpus: an
// ordinary run in a scratch data folder (its units record their cost), and
// each stage's whole CPU (planning and writing included).
type costRun struct {
	stageCPU map[string]float64
	data     string
	corpus   string
	args     []string // the `solbehave run` flags it ran with
}

// keptStage is a stage whose planned units keep chooses.
type keptStage struct {
	pipeline.Stage
	keep func(pipeline.Unit) bool
}

func (s keptStage) Plan(ctx context.Context, env *pipeline.Env) ([]pipeline.Unit, error) {
	units, err := s.Stage.Plan(ctx, env)
	if err != nil {
		return units, err
	}
	return slices.DeleteFunc(units, func(u pipeline.Unit) bool { return !s.keep(u) }), nil
}

// costStages are the stages the cost run times, in pipeline order: all but
// the report (generation is the mutant generator: the paper's is an LLM,
// costed apart).
func costStages() []pipeline.Stage {
	return slices.DeleteFunc(stagelist.All(), func(s pipeline.Stage) bool { return s.Name() == "report" })
}

// costArgs are the `solbehave run` flags of the cost run: the paper's
// parameters (every stage's default) with k mutant samples, k more that do
// not compile (mutant:compile-error: half the paper's raw samples fail, and
// a failing compile costs a fraction of one that succeeds), no annotations,
// and whatever the configuration adds (the smoke run's small budgets).
func costArgs(cfg ProjectionConfig) []string {
	args := []string{"--generator", "mutant,mutant:" + regen.CompileErrorVariant, "--samples", strconv.Itoa(cfg.Samples), "--dcr-annotations", ""}
	return append(args, cfg.Args...)
}

// measureCosts runs the stages over the corpus in a scratch folder, one unit
// at a time (so a unit's CPU is its own), each stage forced; the runner
// records every unit's cost in its manifest.
func (b *bencher) measureCosts(ctx context.Context, entries []etherscan.Entry) (*costRun, error) {
	scratch, err := os.MkdirTemp("", "solbench-costs-")
	if err != nil {
		return nil, err
	}
	run := &costRun{stageCPU: map[string]float64{}, data: filepath.Join(scratch, "data"), args: costArgs(b.cfg.Projection)}
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
	for _, s := range stages {
		if s.Name() == "vuln" {
			s = keptStage{Stage: s, keep: firstSamples(b.cfg.Projection.VulnSamples)}
		}
		start := cpuclock.Tree()
		c, err := runner.Run(ctx, s)
		run.stageCPU[s.Name()] = (cpuclock.Tree() - start).Seconds()
		fmt.Fprintf(b.log, "bench: cost run: %s %d unit(s), %d failed, %.1f CPU-s\n", s.Name(), c.Ran, c.Failed, run.stageCPU[s.Name()])
		if err != nil {
			return run, fmt.Errorf("bench: cost run: %s: %w", s.Name(), err)
		}
	}
	return run, nil
}

// firstSamples keeps the vuln units of samples 0..n-1 (no originals: an
// original costs as much as a sample).
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

// project projects the paper's evaluation from the cost run's units, the
// way `solbehave cost` does from any data folder.
func (r *costRun) project(ctx context.Context, cores []int, overheadMS float64) (*projection.Projection, error) {
	if err := pipeline.WriteUnits(r.data); err != nil {
		return nil, err
	}
	db, err := views.OpenDatasetsInMemory(filepath.Join(r.data, "warehouse"))
	if err != nil {
		return nil, err
	}
	defer db.Close()
	m, err := projection.Read(ctx, db)
	if err != nil {
		return nil, err
	}
	return projection.Project(m, projection.Paper, projection.Options{Cores: cores, OverheadMS: overheadMS,
		Args: r.args, StageCPU: r.stageCPU, Seed: 42}), nil
}
