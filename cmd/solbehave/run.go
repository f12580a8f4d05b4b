package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/solbehave/solbehave/cmd/solbehave/stagelist"
	"github.com/solbehave/solbehave/internal/config"
	"github.com/solbehave/solbehave/internal/views"
	"github.com/solbehave/solbehave/pipeline"
)

func newStagesCmd(stages []pipeline.Stage) *cobra.Command {
	return &cobra.Command{
		Use:   "stages",
		Short: "List the stages in order, one line each",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			w := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			for i, s := range stages {
				fmt.Fprintf(w, "%d\t%s\t%s\n", i+1, s.Name(), s.Summary())
			}
			return w.Flush()
		},
	}
}

func newStageCmd(g *globals, s pipeline.Stage) *cobra.Command {
	cmd := &cobra.Command{
		Use:   s.Name(),
		Short: s.Summary(),
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runStages(cmd, g, nil, []pipeline.Stage{s})
		},
	}
	s.BindFlags(cmd.Flags())
	bindRepin(cmd, g)
	return cmd
}

// bindRepin gives a command that runs stages --repin.
func bindRepin(cmd *cobra.Command, g *globals) {
	cmd.Flags().StringArrayVar(&g.repin, "repin", nil, "change one of the evaluation's pinned choices for every model on purpose, "+
		"KEY=VALUE (e.g. natspec-model=openai:m); repeatable")
}

func newRunCmd(g *globals, stages []pipeline.Stage) *cobra.Command {
	var until string
	var only []string
	var dryRun bool
	var fromRelease string
	var engine engineFlags
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Run the stages in order (all that exist, or up to --until, or --only some)",
		Long: "Runs the stages in pipeline order; a unit whose inputs and parameters are unchanged is skipped. " +
			"Then rebuilds the DuckDB file and prints the tables of the stages that ran.\n\n" + exitCodes,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			chosen, err := selectStages(stages, until, only)
			if err != nil {
				return err
			}
			if fromRelease != "" && dryRun {
				return fmt.Errorf("--from-release writes the release's models into --data; it takes no --dry-run")
			}
			if fromRelease != "" {
				if err := takeRelease(cmd, g, fromRelease); err != nil {
					return err
				}
			}
			if dryRun {
				if _, err := g.pinEvaluation(cmd, "", nil, pinCheck); err != nil {
					return err
				}
				return printPlan(cmd, g, chosen)
			}
			return runStages(cmd, g, &engine, chosen)
		},
	}
	engine.bind(cmd.Flags())
	cmd.Flags().StringVar(&until, "until", "", "last stage to run")
	cmd.Flags().StringSliceVar(&only, "only", nil, "run only these stages (comma-separated), in pipeline order")
	cmd.Flags().StringVar(&fromRelease, "from-release", "", "start from a release written by publish: its models come in as rows, "+
		"the run evaluates --generator on its corpus under its parameters (those the command line and configuration leave unset)")
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "print the plan (per stage: units, current, to run and why) and run nothing")
	for _, s := range stages {
		s.BindFlags(cmd.Flags())
	}
	bindRepin(cmd, g)
	return cmd
}

// selectStages applies --until and --only to the existing stages.
func selectStages(stages []pipeline.Stage, until string, only []string) ([]pipeline.Stage, error) {
	known := map[string]bool{}
	for _, n := range stagelist.Order {
		known[n] = true
	}
	wanted := map[string]bool{}
	for _, n := range only {
		n = strings.TrimSpace(n)
		if !known[n] {
			return nil, fmt.Errorf("unknown stage %q (stages: %s)", n, strings.Join(stagelist.Order, ", "))
		}
		wanted[n] = true
	}
	if until != "" && !known[until] {
		return nil, fmt.Errorf("unknown stage %q (stages: %s)", until, strings.Join(stagelist.Order, ", "))
	}
	var out []pipeline.Stage
	for _, s := range stages {
		if len(wanted) == 0 || wanted[s.Name()] {
			out = append(out, s)
		}
		if s.Name() == until {
			break
		}
	}
	return out, nil
}

func stageNames(stages []pipeline.Stage) []string {
	names := make([]string, len(stages))
	for i, s := range stages {
		names[i] = s.Name()
	}
	return names
}

// checker is a stage with settings it refuses to run with, found before
// any stage runs (o3: several LLM generators and no reference extractor).
type checker interface{ Check() error }

func checkSettings(stages []pipeline.Stage) error {
	for _, s := range stages {
		if c, ok := s.(checker); ok {
			if err := c.Check(); err != nil {
				return err
			}
		}
	}
	return nil
}

// runStages runs stages one after another, on this machine or as a Temporal
// workflow (engine nil: local), then rebuilds the DuckDB file.
func runStages(cmd *cobra.Command, g *globals, engine *engineFlags, stages []pipeline.Stage) error {
	shard, err := pipeline.ParseShard(g.shard)
	if err != nil {
		return err
	}
	if err := views.CheckGlobbable(g.data); err != nil { // refused before any stage, not after all of them
		return err
	}
	repin, err := parseRepins(g.repin)
	if err != nil {
		return err
	}
	// Refused before anything is written; the pins are written once the run has an id.
	if _, err := g.pinEvaluation(cmd, "", repin, pinCheck, stageNames(stages)...); err != nil {
		return err
	}
	if err := checkSettings(stages); err != nil {
		return err
	}
	if err := pipeline.ClaimStagesModels(g.data, stages); err != nil { // before the first write: pipeline/modelnames.go
		return err
	}
	env := g.env()
	defer env.Engines.Close()
	// The effective command line (URLs without their credentials), not os.Args.
	release, err := pipeline.LockStages(g.data, shard, stageNames(stages), "solbehave "+g.cmdline)
	if err != nil {
		return err
	}
	defer release()
	name := "local"
	if engine != nil {
		name = engine.engine
	}
	rec, err := g.startRun(name)
	if err != nil {
		return err
	}
	env.Run = g.runInfo(rec.row.RunID)
	env.Run.Started, env.Run.Command = rec.start, config.LocallessCommand(rec.row.Command)
	env.Run.Version = strings.TrimSpace(rec.row.ToolVersion + " " + rec.row.VCSRevision)
	changed, err := g.pinEvaluation(cmd, rec.row.RunID, repin, pinWrite, stageNames(stages)...)
	if err != nil {
		return err
	}
	if err := reportRepin(cmd, g, env, changed); err != nil {
		return err
	}
	var counters []pipeline.Counters
	switch {
	case engine == nil || engine.engine == "local":
		progress := pipeline.NewRunState(rec.row.RunID, stageNames(stages))
		defer pipeline.ClearRunState(g.data)
		counters, err = runLocal(cmd, g, env, shard, stages, progress)
	case engine.engine == "temporal":
		counters, err = runTemporal(cmd, g, engine, stages, env)
	default:
		return fmt.Errorf("--engine %q: want local or temporal", engine.engine)
	}
	failed := 0
	for _, c := range counters {
		failed += c.Failed + c.KeptFailed // failures left by earlier runs count until fixed
		g.counters = append(g.counters, c)
		env.Log.Info("stage done", "stage", c.Stage, "units", c.Units, "ran", c.Ran, "skipped", c.Skipped,
			"failed", c.Failed, "elapsed", c.Elapsed.Round(1e6).String())
	}
	ended := err
	if ended == nil && failed > 0 {
		ended = &failedUnitsError{n: failed}
	}
	if rerr := g.recordRun(rec, env, counters, ended); rerr != nil {
		return errors.Join(err, rerr)
	}
	if err != nil {
		return err
	}
	if err := g.recordPlans(cmd, env, shard, stages); err != nil {
		return err
	}
	if err := g.buildViews(); err != nil {
		return err
	}
	if err := printSummary(cmd, g, stageNames(stages)); err != nil {
		return err
	}
	if failed > 0 {
		return &failedUnitsError{n: failed}
	}
	return nil
}

// recordPlans plans every stage again, the ones this run did not run
// included (with the parameters of their last plan), and records each plan
// as the stage's last: a unit whose inputs this run changed is stale from
// now on (the views leave its rows out and status says so), whichever stage
// it belongs to.
func (g *globals) recordPlans(cmd *cobra.Command, env *pipeline.Env, shard pipeline.Shard, ran []pipeline.Stage) error {
	stages, params, err := g.surveyStages(env.Data, ran)
	if err != nil {
		return err
	}
	run := *env.Run
	run.Params = params
	survey := *env
	survey.Run = &run
	r := &pipeline.Runner{Env: &survey, Shard: shard}
	first := len(stagelist.Order)
	for _, s := range ran {
		first = min(first, slices.Index(stagelist.Order, s.Name()))
	}
	// The stages before the first one this run ran, and that one, stand by
	// their plans: nothing this run did changed their inputs (and a live
	// crawl's plan asks the outside world).
	after := func(s pipeline.Stage) bool { return slices.Index(stagelist.Order, s.Name()) > first }
	surveys, err := r.Survey(cmd.Context(), stages, after, true)
	if err != nil {
		return err
	}
	for _, sv := range surveys {
		if sv.Err != nil {
			env.Log.Warn("stage cannot plan; its last plan stands", "stage", sv.Stage.Name(), "err", sv.Err)
		} else if st := r.Status(sv.Stage, sv.Units); st.Stale > 0 {
			env.Log.Info("units stale", "stage", st.Stage, "units", st.Stale)
		}
	}
	return nil
}

// surveyStages are fresh stages set as a survey plans them, with the
// parameters of each (as manifests record them): the stages this run ran at
// its effective configuration, the others at their last plan's parameters.
func (g *globals) surveyStages(data string, ran []pipeline.Stage) ([]pipeline.Stage, map[string]map[string]string, error) {
	this := g.runInfo("").Params
	params := map[string]map[string]string{}
	stages := stagelist.All()
	for _, s := range stages {
		fs := pflag.NewFlagSet(s.Name(), pflag.ContinueOnError)
		s.BindFlags(fs)
		if err := g.cfg.Apply(fs); err != nil {
			return nil, nil, err
		}
		params[s.Name()] = this[s.Name()]
		last := pipeline.PlanParams(data, s.Name())
		if slices.Contains(stageNames(ran), s.Name()) || last == nil {
			continue
		}
		if err := config.ApplyParams(fs, last); err != nil {
			return nil, nil, err
		}
		params[s.Name()] = last
	}
	return stages, params, nil
}

// recordRun writes the invocation's runs row (when any unit ran).
func (g *globals) recordRun(rec *runRecord, env *pipeline.Env, counters []pipeline.Counters, runErr error) error {
	wrote, err := rec.finish(env.Warehouse, counters, exitStatus(runErr))
	if err != nil {
		return fmt.Errorf("recording the run: %w", err)
	}
	if wrote {
		g.lastRun = rec.row.RunID
		env.Log.Info("run recorded", "run_id", rec.row.RunID)
	}
	return nil
}

// runLocal runs every unit in this process with the pipeline's Runner.
//
// Each stage's rows are in the views as soon as it ends: the DuckDB file is
// brought up to date after every stage that ran units (atomically: a reader
// sees the old file or the new one), and progress, when set, says which
// stages are still to come.
func runLocal(cmd *cobra.Command, g *globals, env *pipeline.Env, shard pipeline.Shard, stages []pipeline.Stage, progress *pipeline.RunState) ([]pipeline.Counters, error) {
	r := &pipeline.Runner{Env: env, Force: g.force, Progress: !g.quiet, Shard: shard}
	mark := func(stage, state string) {
		if progress == nil {
			return
		}
		if err := progress.Mark(g.data, stage, state); err != nil {
			env.Log.Warn("recording the run's progress", "err", err)
		}
	}
	mark("", "") // no stage: writes the file, every stage pending
	var out []pipeline.Counters
	for i, s := range stages {
		mark(s.Name(), pipeline.StageRunning)
		retried := 0
		if g.retry {
			n, err := retryFailed(cmd.Context(), r, s) // retry.go
			if err != nil {
				return out, err
			}
			retried = n
		}
		c, err := r.Run(cmd.Context(), s)
		c.Ran += retried
		if err != nil {
			return out, err
		}
		out = append(out, c)
		mark(s.Name(), pipeline.StageDone)
		if c.Ran > 0 && i < len(stages)-1 { // after the last stage, the run's end updates them
			if err := g.buildViews(); err != nil {
				env.Log.Warn("the views do not show this stage's rows until the run ends", "stage", s.Name(), "err", err)
			}
		}
	}
	return out, nil
}

// buildViews rewrites the units dataset from the manifests (what each unit
// cost) and brings the DuckDB views over the data folder's warehouse up to
// date: they are built again only where their definitions changed (a
// dataset's first part, a sql/ file), since new parts are read through the
// views' globs.
func (g *globals) buildViews() error {
	if err := pipeline.WriteUnits(g.data); err != nil {
		return fmt.Errorf("writing the units dataset: %w", err)
	}
	if _, err := views.Update(g.dbPath(), filepath.Join(g.data, "warehouse")); err != nil {
		return fmt.Errorf("building %s: %w", g.dbPath(), err)
	}
	return nil
}
