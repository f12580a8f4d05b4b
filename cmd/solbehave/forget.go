package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/solbehave/solbehave/cmd/solbehave/stagelist"
	"github.com/solbehave/solbehave/pipeline"
)

// newForgetCmd removes one model's rows: the only way a model leaves a data
// folder, since runs add up model by model.
func newForgetCmd(g *globals) *cobra.Command {
	var model string
	var yes bool
	cmd := &cobra.Command{
		Use:   "forget",
		Short: "Remove one model's (generator's) rows, samples and manifests from the data folder (lists them; --yes removes)",
		Long: "A run adds its generators' rows and leaves every other model's: an evaluation grows model by model. " +
			"forget --generator M lists what M's units wrote (per stage: units, warehouse parts, sample folders) and, " +
			"with --yes, removes them and rebuilds the DuckDB file. Nothing of another model is touched.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return forget(cmd, g, model, yes)
		},
	}
	cmd.Flags().StringVar(&model, "generator", "", "the model to remove, as the views name it (their model column)")
	cmd.Flags().BoolVar(&yes, "yes", false, "remove what is listed (without it nothing is removed)")
	return cmd
}

func forget(cmd *cobra.Command, g *globals, model string, yes bool) error {
	if strings.TrimSpace(model) == "" {
		return errors.New("forget: --generator names no model")
	}
	r, err := pipeline.PlanForget(g.data, model)
	if err != nil {
		return err
	}
	if r.Empty() {
		models, _ := pipeline.Models(g.data)
		return fmt.Errorf("forget: no unit of model %q in %s (models there: %s)", model, g.data, strings.Join(models, ", "))
	}
	out := cmd.OutOrStdout()
	fmt.Fprintf(out, "model %s:\n", model)
	for _, stage := range stagelist.Order {
		if n := r.Units[stage]; n > 0 {
			fmt.Fprintf(out, "  %-10s %d unit(s)\n", stage, n)
		}
	}
	if n := r.Units["imported"]; n > 0 {
		fmt.Fprintf(out, "  imported from a release: %d part(s)\n", n)
	}
	fmt.Fprintf(out, "  %d warehouse part(s), %d sample folder(s) or file(s)\n", len(r.Parts), len(r.Owned))
	if !yes {
		fmt.Fprintln(out, "nothing removed: run again with --yes to remove these")
		return nil
	}
	release, err := pipeline.LockStages(g.data, pipeline.Shard{}, slices.Clone(stagelist.Order), "solbehave forget --generator "+model)
	if err != nil {
		return err
	}
	defer release()
	if err := pipeline.Forget(g.data, r); err != nil {
		return err
	}
	if err := g.buildViews(); err != nil {
		return err
	}
	fmt.Fprintf(out, "removed model %s\n", model)
	return nil
}
