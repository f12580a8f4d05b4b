package temporal

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"sync"
	"time"

	"github.com/spf13/pflag"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/solbehave/solbehave/internal/failure"
	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/pipeline"
)

// Worker runs workflows and units on this machine.
type Worker struct {
	NewStages func() []pipeline.Stage // every stage, fresh (flags at their defaults)
	Only      []string                // stages whose units this worker runs (empty: all)
	Jobs      int                     // units run at once
	Log       *slog.Logger
	Engines   *pipeline.Engines // shared by every run this worker serves
	Faults    []Fault           // injected failures (tests only; see ParseFaults)

	mu   sync.Mutex
	runs map[string]*runState // by Config.key
}

// runState is one run's stages and runner on this worker, with the stage
// plans it has made, so a stage is planned once per worker, not per unit.
type runState struct {
	runner *pipeline.Runner
	stages map[string]pipeline.Stage

	mu    sync.Mutex
	plans map[string]*stagePlan // by stage workflow id
}

type stagePlan struct {
	once  sync.Once
	units map[string]pipeline.Unit
	err   error
}

// Serve polls taskQueue until ctx ends.
func (w *Worker) Serve(ctx context.Context, c client.Client, taskQueue string) error {
	tw := worker.New(c, taskQueue, worker.Options{
		MaxConcurrentActivityExecutionSize: max(1, w.Jobs),
		// A unit can take minutes; let it finish when the worker is stopped.
		WorkerStopTimeout: 10 * time.Second,
	})
	w.Register(tw)
	stop := make(chan any)
	go func() { <-ctx.Done(); close(stop) }()
	return tw.Run(stop)
}

// Register adds the workflows, the plan activity and one unit activity per
// stage this worker runs.
func (w *Worker) Register(r worker.Registry) {
	r.RegisterWorkflowWithOptions(RunWorkflow, workflow.RegisterOptions{Name: RunWorkflowName})
	r.RegisterWorkflowWithOptions(StageWorkflow, workflow.RegisterOptions{Name: StageWorkflowName})
	r.RegisterActivityWithOptions(w.plan, activity.RegisterOptions{Name: PlanActivityName})
	only := map[string]bool{}
	for _, s := range w.Only {
		only[s] = true
	}
	for _, s := range w.NewStages() {
		if len(only) == 0 || only[s.Name()] {
			name := s.Name()
			r.RegisterActivityWithOptions(func(ctx context.Context, in UnitInput) (UnitResult, error) {
				return w.unit(ctx, name, in)
			}, activity.RegisterOptions{Name: UnitActivityName(name)})
		}
	}
}

// plan is the plan activity: the local runner's Prepare (plan, remove
// orphans, skip current units), whose units this worker then keeps.
func (w *Worker) plan(ctx context.Context, cfg Config, stage string) (PlanResult, error) {
	rt, s, err := w.stage(cfg, stage)
	if err != nil {
		return PlanResult{}, err
	}
	stop := heartbeat(ctx, cfg.Heartbeat)
	defer stop()
	todo, c, err := rt.runner.Prepare(ctx, s)
	if err != nil {
		return PlanResult{}, err
	}
	p := PlanResult{Units: c.Units, Skipped: c.Skipped, KeptFailed: c.KeptFailed}
	for _, u := range todo {
		p.Todo = append(p.Todo, UnitRef{ID: u.ID, Fingerprint: u.Fingerprint})
	}
	return p, nil
}

// unit is a unit activity: find the unit in this worker's plan of the stage,
// run it through the runner, and map its failure onto Temporal's retries.
func (w *Worker) unit(ctx context.Context, stage string, in UnitInput) (UnitResult, error) {
	info := activity.GetInfo(ctx)
	res := UnitResult{Attempt: info.Attempt}
	stop := heartbeat(ctx, in.Config.Heartbeat) // from the start: this worker's first plan of the stage may be slow
	defer stop()
	rt, s, err := w.stage(in.Config, stage)
	if err != nil {
		return res, err
	}
	u, err := rt.unit(ctx, info.WorkflowExecution.ID, s, in.Unit)
	if err != nil {
		return res, err
	}
	// A retry whose earlier attempt stored the unit before its worker was
	// lost: the outputs are complete, so do not run it again.
	if info.Attempt > 1 && !in.Config.Force {
		if current, failed := rt.runner.Stored(s, u); current {
			res.Current, res.Failed = true, failed
			return res, nil
		}
	}
	w.Log.Info("unit start", "stage", stage, "unit", u.ID, "attempt", info.Attempt)
	last := info.Attempt >= in.Config.Attempts
	failed, err := rt.runner.RunUnit(ctx, w.inject(s, info.Attempt), u, !last)
	if err != nil {
		class, retriable := failure.Of(err)
		return res, temporal.NewApplicationErrorWithOptions(err.Error(), class.String(), temporal.ApplicationErrorOptions{NonRetryable: !retriable})
	}
	res.Failed = failed
	return res, nil
}

// stage returns the run's state on this worker and one of its stages,
// building them on the run's first activity here.
func (w *Worker) stage(cfg Config, name string) (*runState, pipeline.Stage, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	key := cfg.key()
	rt := w.runs[key]
	if rt == nil {
		var err error
		if rt, err = w.newRuntime(cfg); err != nil {
			return nil, nil, temporal.NewApplicationErrorWithOptions(err.Error(), "config", temporal.ApplicationErrorOptions{NonRetryable: true})
		}
		if w.runs == nil || len(w.runs) >= 4 {
			w.runs = map[string]*runState{} // a worker serves few runs at once; forget older ones
		}
		w.runs[key] = rt
	}
	s := rt.stages[name]
	if s == nil {
		return nil, nil, temporal.NewApplicationErrorWithOptions("unknown stage "+name, "config", temporal.ApplicationErrorOptions{NonRetryable: true})
	}
	return rt, s, nil
}

// newRuntime builds fresh stages with the run's flags, as `solbehave run`
// binds them, and an environment on the run's shared paths.
func (w *Worker) newRuntime(cfg Config) (*runState, error) {
	stages := w.NewStages()
	fs := pflag.NewFlagSet("run", pflag.ContinueOnError)
	byName := map[string]pipeline.Stage{}
	for _, s := range stages {
		s.BindFlags(fs)
		byName[s.Name()] = s
	}
	if err := applyFlags(fs, cfg.Flags); err != nil {
		return nil, err
	}
	shard, err := pipeline.ParseShard(cfg.Shard)
	if err != nil {
		return nil, err
	}
	env := &pipeline.Env{
		Corpus: cfg.Corpus, Data: cfg.Data, Seed: cfg.Seed, Jobs: max(1, w.Jobs), Log: w.Log,
		Warehouse: warehouse.New(filepath.Join(cfg.Data, "warehouse")), Engines: w.Engines,
		Run: &pipeline.RunInfo{ID: cfg.RunID, Params: cfg.Params},
	}
	r := &pipeline.Runner{Env: env, Force: cfg.Force, Shard: shard}
	return &runState{runner: r, stages: byName, plans: map[string]*stagePlan{}}, nil
}

// unit finds a scheduled unit in this worker's plan of its stage. A unit the
// plan lacks is not run. One whose fingerprint differs runs as planned here,
// as a local run planned now would run it: its inputs changed since the plan
// activity, or its plan is time-dependent (the report's, when its page is
// missing), or this worker sees other files (a volume that is not shared).
func (rt *runState) unit(ctx context.Context, stageWorkflow string, s pipeline.Stage, ref UnitRef) (pipeline.Unit, error) {
	rt.mu.Lock()
	p := rt.plans[stageWorkflow]
	if p == nil {
		if len(rt.plans) >= 2 {
			rt.plans = map[string]*stagePlan{} // stages run one after another
		}
		p = &stagePlan{}
		rt.plans[stageWorkflow] = p
	}
	rt.mu.Unlock()
	p.once.Do(func() {
		units, err := rt.runner.Plan(ctx, s)
		p.units, p.err = map[string]pipeline.Unit{}, err
		for _, u := range units {
			p.units[u.ID] = u
		}
	})
	if p.err != nil {
		rt.mu.Lock()
		delete(rt.plans, stageWorkflow) // let the retry plan again
		rt.mu.Unlock()
		return pipeline.Unit{}, p.err
	}
	u, ok := p.units[ref.ID]
	if !ok {
		return u, temporal.NewApplicationErrorWithOptions(fmt.Sprintf("%s: unit %s is not in this worker's plan",
			s.Name(), ref.ID), errPlanChanged, temporal.ApplicationErrorOptions{NonRetryable: true})
	}
	if u.Fingerprint != ref.Fingerprint {
		rt.runner.Env.Log.Warn("unit planned here with another fingerprint; running this plan's",
			"stage", s.Name(), "unit", u.ID, "scheduled", ref.Fingerprint, "here", u.Fingerprint)
	}
	return u, nil
}

// heartbeat records a heartbeat a few times per timeout until stopped: it
// says the worker lives, which is what Temporal needs to retry the units of
// a dead one early; the SDK batches the calls.
func heartbeat(ctx context.Context, timeout time.Duration) (stop func()) {
	t := time.NewTicker(max(timeout/4, 100*time.Millisecond))
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-t.C:
				activity.RecordHeartbeat(ctx)
			case <-done:
				return
			case <-ctx.Done():
				return
			}
		}
	}()
	return func() { t.Stop(); close(done) }
}
