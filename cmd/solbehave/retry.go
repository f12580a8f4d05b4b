package main

import (
	"context"
	"errors"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/spf13/cobra"

	"github.com/solbehave/solbehave/pipeline"
)

// newRetryCmd is `solbehave retry`: the failed units run again, even those
// whose failure is not retriable (a run keeps those until their inputs
// change), then every stage after them as `run` would.
func newRetryCmd(g *globals, stages []pipeline.Stage) *cobra.Command {
	var until string
	var only []string
	cmd := &cobra.Command{
		Use:   "retry [--only STAGES] [--until STAGE]",
		Short: "Run the failed units again (e.g. after fixing their cause), then the stages that depend on them",
		Long: "A run keeps a unit that failed for a reason that does not pass by itself (a compiler error, a bad record) " +
			"until its inputs change. retry runs those units again, in every stage chosen (all, or --only, or up to " +
			"--until), and runs the rest of each stage as `run` does, so later stages see the new outputs. " +
			"`solbehave errors` lists the failed units first.\n\n" + exitCodes,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			chosen, err := selectStages(stages, until, only)
			if err != nil {
				return err
			}
			g.retry = true
			return runStages(cmd, g, nil, chosen)
		},
	}
	cmd.Flags().StringVar(&until, "until", "", "last stage to run")
	cmd.Flags().StringSliceVar(&only, "only", nil, "retry only these stages (comma-separated), in pipeline order")
	for _, s := range stages {
		s.BindFlags(cmd.Flags())
	}
	return cmd
}

// retryFailed runs again the units of s whose current stored output is an
// error row (the runner would keep them), Env.Jobs at a time, and returns
// how many it ran.
func retryFailed(ctx context.Context, r *pipeline.Runner, s pipeline.Stage) (int, error) {
	units, err := r.Plan(ctx, s)
	if err != nil {
		return 0, err
	}
	var failed []pipeline.Unit
	for _, u := range units {
		if current, isErr := r.Stored(s, u); current && isErr {
			failed = append(failed, u)
		}
	}
	if len(failed) == 0 {
		return 0, nil
	}
	r.Env.Log.Info("retrying failed units", "stage", s.Name(), "units", len(failed))
	var g errgroup.Group
	g.SetLimit(max(1, r.Env.Jobs))
	var mu sync.Mutex
	var errs []error
	for _, u := range failed {
		if ctx.Err() != nil {
			break
		}
		g.Go(func() error {
			if _, err := r.RunUnit(ctx, s, u, false); err != nil {
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
			}
			return nil
		})
	}
	g.Wait()
	if ctx.Err() != nil {
		return 0, ctx.Err()
	}
	// A unit that fails again is stored as an error row, which the stage's
	// run then counts; only a storage failure stops here.
	for _, err := range errs {
		if errors.Is(err, pipeline.ErrStorage) {
			return 0, err
		}
	}
	return len(failed), nil
}
