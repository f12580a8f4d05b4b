package temporal

import (
	"fmt"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// RunWorkflow walks the stages in order, one child workflow each, and
// returns every stage's counters. Workflow code must be deterministic: it
// reads time only through workflow.Now and does no I/O.
func RunWorkflow(ctx workflow.Context, cfg Config) ([]StageCounters, error) {
	cfg = cfg.withDefaults()
	prog := RunProgress{Stages: cfg.Stages}
	if err := workflow.SetQueryHandler(ctx, ProgressQuery, func() (RunProgress, error) { return prog, nil }); err != nil {
		return nil, err
	}
	id := workflow.GetInfo(ctx).WorkflowExecution.ID
	for i, stage := range cfg.Stages {
		prog.Index, prog.StageWorkflow = i, id+"/"+stage
		cctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: prog.StageWorkflow, TaskQueue: cfg.TaskQueue})
		var c StageCounters
		if err := workflow.ExecuteChildWorkflow(cctx, StageWorkflowName, StageInput{Config: cfg, Stage: stage}).Get(ctx, &c); err != nil {
			return prog.Finished, fmt.Errorf("stage %s: %w", stage, err)
		}
		prog.Finished = append(prog.Finished, c)
	}
	prog.Index, prog.StageWorkflow = len(cfg.Stages), ""
	return prog.Finished, nil
}

// StageWorkflow plans one stage and runs its pending units, at most Fanout
// at a time. After Batch units it continues as new with the rest, so its
// history stays small however large the corpus.
func StageWorkflow(ctx workflow.Context, in StageInput) (StageCounters, error) {
	start := workflow.Now(ctx)
	in.Counters.Stage = in.Stage
	last := ""
	err := workflow.SetQueryHandler(ctx, ProgressQuery, func() (StageProgress, error) {
		return StageProgress{Counters: in.Counters, ToRun: in.ToRun, Last: last}, nil
	})
	if err != nil {
		return in.Counters, err
	}
	if !in.Planned {
		if err := plan(ctx, &in); err != nil {
			return in.Counters, err
		}
	}
	batch, rest := in.Todo[:min(len(in.Todo), in.Config.Batch)], in.Todo[min(len(in.Todo), in.Config.Batch):]
	runUnits(ctx, in.Config, in.Stage, batch, func(u UnitRef, r UnitResult, err error) {
		c := &in.Counters
		c.Ran++
		if err != nil || r.Failed {
			c.Failed++
		}
		if err != nil {
			workflow.GetLogger(ctx).Warn("unit not recorded", "stage", in.Stage, "unit", u.ID, "error", err)
		}
		if r.Attempt > 1 {
			c.Retried++
		}
		last = u.ID
	})
	in.Counters.Elapsed += workflow.Now(ctx).Sub(start)
	if len(rest) > 0 {
		in.Todo = rest
		return in.Counters, workflow.NewContinueAsNewError(ctx, StageWorkflowName, in)
	}
	return in.Counters, nil
}

// plan runs the plan activity, which also removes orphaned outputs.
func plan(ctx workflow.Context, in *StageInput) error {
	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		TaskQueue:           in.Config.TaskQueue,
		StartToCloseTimeout: time.Hour,
		HeartbeatTimeout:    in.Config.Heartbeat,
		RetryPolicy:         retryPolicy(in.Config),
	})
	var p PlanResult
	if err := workflow.ExecuteActivity(actx, PlanActivityName, in.Config, in.Stage).Get(ctx, &p); err != nil {
		return fmt.Errorf("plan: %w", err)
	}
	in.Counters.Units, in.Counters.Skipped, in.Counters.KeptFailed = p.Units, p.Skipped, p.KeptFailed
	in.Todo, in.ToRun, in.Planned = p.Todo, len(p.Todo), true
	return nil
}

// runUnits schedules one activity per unit, keeping at most Fanout in
// flight, and calls done as each one ends.
func runUnits(ctx workflow.Context, cfg Config, stage string, units []UnitRef, done func(UnitRef, UnitResult, error)) {
	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		TaskQueue: cfg.queue(stage),
		// A backstop only: units bound themselves (the oracles' budgets and
		// timeouts), and a dead worker is found by its missing heartbeat.
		StartToCloseTimeout: 24 * time.Hour,
		HeartbeatTimeout:    cfg.Heartbeat,
		RetryPolicy:         retryPolicy(cfg),
	})
	sel := workflow.NewSelector(ctx)
	inflight, next := 0, 0
	for next < len(units) || inflight > 0 {
		for inflight < cfg.Fanout && next < len(units) {
			u := units[next]
			next++
			inflight++
			f := workflow.ExecuteActivity(actx, UnitActivityName(stage), UnitInput{Config: cfg, Unit: u})
			sel.AddFuture(f, func(f workflow.Future) {
				inflight--
				var r UnitResult
				err := f.Get(ctx, &r)
				done(u, r, err)
			})
		}
		sel.Select(ctx)
	}
}

// retryPolicy retries what the activity returns as retriable (a unit's
// retriable failure before its last attempt, a failed write, a lost worker)
// with exponential backoff.
func retryPolicy(cfg Config) *temporal.RetryPolicy {
	return &temporal.RetryPolicy{
		InitialInterval:        time.Second,
		BackoffCoefficient:     2,
		MaximumInterval:        time.Minute,
		MaximumAttempts:        cfg.Attempts,
		NonRetryableErrorTypes: []string{errPlanChanged},
	}
}
