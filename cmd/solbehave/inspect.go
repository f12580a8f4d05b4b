package main

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/solbehave/solbehave/internal/views"
	"github.com/solbehave/solbehave/pipeline"
)

func newErrorsCmd(g *globals) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "errors [--format table|csv|json]",
		Short: "List the units that failed, with their class and message (writes nothing)",
		Long: "Lists the error rows of the units that failed, one per unit, as status counts them. Writes nothing: " +
			"when the DuckDB file reads another folder (the data folder moved), it says so and reads this folder's data.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			db, err := g.readDB(cmd) // sql.go: writes nothing
			if err != nil {
				return err
			}
			defer db.Close()
			return views.Query(cmd.Context(), db,
				"SELECT stage, unit, class, retriable, message FROM errors ORDER BY stage, unit", format, cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&format, "format", "table", "output format: table, csv or ndjson (or json)")
	return cmd
}

func newStatusCmd(g *globals, stages []pipeline.Stage) *cobra.Command {
	var explain bool
	cmd := &cobra.Command{
		Use:   "status [--explain] [stage flags]",
		Short: "Show, per stage, units done / stale / failed / pending against the effective configuration (runs and writes nothing)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			shard, err := pipeline.ParseShard(g.shard)
			if err != nil {
				return err
			}
			if err := g.requireData(); err != nil {
				return err
			}
			if _, err := g.pinEvaluation(cmd, "", nil, pinSurvey); err != nil { // the folder's corpus and pins
				return err
			}
			g.warnMoved(cmd)
			env := g.env()
			defer env.Engines.Close()
			env.Run = g.runInfo("")
			r := &pipeline.Runner{Env: env, Shard: shard}
			w := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "stage\tdone\tstale\tfailed\tpending")
			surveys, err := r.Survey(cmd.Context(), stages, func(pipeline.Stage) bool { return true }, false)
			if err != nil {
				return err
			}
			var stale []staleStage
			for _, sv := range surveys {
				if sv.Err != nil {
					fmt.Fprintf(w, "%s\t(cannot plan: %v)\n", sv.Stage.Name(), sv.Err)
					continue
				}
				st := r.Status(sv.Stage, sv.Units)
				fmt.Fprintf(w, "%s\t%d\t%d\t%d\t%d\n", st.Stage, st.Done, st.Stale, st.Failed, st.Pending)
				if explain && st.Stale > 0 {
					stale = append(stale, staleStage{sv, st.Stale})
				}
			}
			if err := w.Flush(); err != nil {
				return err
			}
			if err := printFailed(cmd, env.Warehouse.Root); err != nil {
				return err
			}
			if err := printModels(cmd, g.data); err != nil {
				return err
			}
			return explainStale(cmd, r, stale)
		},
	}
	cmd.Flags().BoolVar(&explain, "explain", false, "for each stale unit, say why: the parameter that changed (recorded in its manifest vs now), a new stage version, changed inputs")
	for _, s := range stages {
		s.BindFlags(cmd.Flags()) // status compares against these, like run
	}
	return cmd
}

// printModels says which runs wrote each model's rows (a data folder grows
// model by model), and which stages of a run writing the folder now are
// still to come: the views lack their new rows until each ends.
func printModels(cmd *cobra.Command, data string) error {
	out := cmd.OutOrStdout()
	if st, err := pipeline.ReadRunState(data); err != nil {
		return err
	} else if st != nil {
		var parts []string
		for _, s := range st.Stages {
			parts = append(parts, s.Stage+" "+s.State)
		}
		fmt.Fprintf(out, "run %s (pid %d) is writing this folder: %s\n", st.RunID, st.PID, strings.Join(parts, ", "))
	}
	models, err := pipeline.ModelRuns(data)
	if err != nil {
		return err
	}
	for _, m := range slices.Sorted(maps.Keys(models)) {
		c := models[m]
		fmt.Fprintf(out, "model %s: %d unit(s), written by run(s) %s\n", m, c.Units, strings.Join(c.Runs, ", "))
	}
	imported := pipeline.ImportedModels(data)
	for _, m := range slices.Sorted(maps.Keys(imported)) {
		fmt.Fprintf(out, "model %s: imported from the release %q (its rows as published; `forget` removes them)\n", m, imported[m])
	}
	return nil
}

// printFailed counts the error rows `solbehave errors` lists, from the same
// dataset: the table's failed column has the kept ones; a retriable failure
// is stale (the next run retries it).
func printFailed(cmd *cobra.Command, root string) error {
	db, err := views.OpenDatasetsInMemory(root) // writes nothing
	if err != nil {
		return err
	}
	defer db.Close()
	var n, retriable int
	if err := db.QueryRowContext(cmd.Context(),
		"SELECT count(*), count(*) FILTER (WHERE retriable) FROM errors").Scan(&n, &retriable); err != nil {
		return err
	}
	if n > 0 {
		fmt.Fprintf(cmd.OutOrStdout(), "%d unit(s) failed (%d kept until their inputs change, %d retriable: the next run retries them); "+
			"`solbehave errors` lists them, `solbehave retry` runs them again\n", n, n-retriable, retriable)
	}
	return nil
}

// staleStage is a surveyed stage with its count of stale units.
type staleStage struct {
	pipeline.StageSurvey
	n int
}

// explainStale prints why the stale units of each stage are stale.
func explainStale(cmd *cobra.Command, r *pipeline.Runner, stale []staleStage) error {
	for _, sv := range stale {
		reasons := r.Reasons(sv.Stage, sv.Units)
		delete(reasons, "not run yet") // pending, not stale
		fmt.Fprintf(cmd.OutOrStdout(), "\n%s: %d stale\n", sv.Stage.Name(), sv.n)
		writeReasons(cmd.OutOrStdout(), reasons, 5)
	}
	return nil
}

func newDigestCmd(g *globals) *cobra.Command {
	var model string
	cmd := &cobra.Command{
		Use:   "digest",
		Short: "Print `<dataset> <sha256>` per dataset, over its rows sorted, volatile and pointer columns left out",
		Long: "Print `<dataset> <sha256>` per dataset, over its rows sorted, volatile and pointer columns left out. With --model, " +
			"only the datasets with a model column, each over that model's rows: a run of another model must leave them as they were.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			db, err := views.OpenDatasetsInMemory(g.env().Warehouse.Root)
			if err != nil {
				return err
			}
			defer db.Close()
			digests, err := views.ModelDigests(cmd.Context(), db, model)
			if errors.Is(err, views.ErrNoModelRows) { // refused as forget refuses a name with no unit
				models, _ := pipeline.Models(g.data)
				return fmt.Errorf("digest --model: %w (models there: %s)", err, strings.Join(models, ", "))
			}
			if err != nil {
				return err
			}
			for _, d := range digests {
				fmt.Fprintf(cmd.OutOrStdout(), "%s %s\n", d.Dataset, d.SHA256)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&model, "model", "", "digest only this model's rows (the datasets with a model column)")
	return cmd
}
