package main

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/solbehave/solbehave/internal/views"
	"github.com/solbehave/solbehave/pipeline"
)

func newErrorsCmd(g *globals) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "errors",
		Short: "List the units that failed, with their class and message",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			db, err := g.openDB()
			if err != nil {
				return err
			}
			defer db.Close()
			return views.Query(cmd.Context(), db,
				"SELECT stage, unit, class, retriable, message FROM errors ORDER BY stage, unit", format, cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&format, "format", "table", "output format: table, csv or json")
	return cmd
}

func newStatusCmd(g *globals, stages []pipeline.Stage) *cobra.Command {
	var explain bool
	cmd := &cobra.Command{
		Use:   "status [--explain] [stage flags]",
		Short: "Show, per stage, units done / stale / failed / pending against the effective configuration (runs nothing)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			shard, err := pipeline.ParseShard(g.shard)
			if err != nil {
				return err
			}
			env := g.env()
			defer env.Engines.Close()
			env.Run = g.runInfo("")
			r := &pipeline.Runner{Env: env, Shard: shard}
			w := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "stage\tdone\tstale\tfailed\tpending")
			var stale []staleStage
			for _, s := range stages {
				st, err := r.Status(cmd.Context(), s)
				if err != nil {
					fmt.Fprintf(w, "%s\t(cannot plan: %v)\n", s.Name(), err)
					continue
				}
				fmt.Fprintf(w, "%s\t%d\t%d\t%d\t%d\n", st.Stage, st.Done, st.Stale, st.Failed, st.Pending)
				if explain && st.Stale > 0 {
					stale = append(stale, staleStage{s, st.Stale})
				}
			}
			if err := w.Flush(); err != nil {
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

type staleStage struct {
	stage pipeline.Stage
	stale int
}

// explainStale prints why the stale units of each stage are stale.
func explainStale(cmd *cobra.Command, r *pipeline.Runner, stale []staleStage) error {
	for _, st := range stale {
		units, err := r.Plan(cmd.Context(), st.stage)
		if err != nil {
			return err
		}
		reasons := r.Reasons(st.stage, units)
		delete(reasons, "not run yet") // pending, not stale
		fmt.Fprintf(cmd.OutOrStdout(), "\n%s: %d stale\n", st.stage.Name(), st.stale)
		writeReasons(cmd.OutOrStdout(), reasons, 5)
	}
	return nil
}

func newDigestCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "digest",
		Short: "Print `<dataset> <sha256>` per dataset, over its rows sorted, volatile columns left out",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			db, err := views.OpenInMemory(g.env().Warehouse.Root)
			if err != nil {
				return err
			}
			defer db.Close()
			digests, err := views.Digests(cmd.Context(), db)
			if err != nil {
				return err
			}
			for _, d := range digests {
				fmt.Fprintf(cmd.OutOrStdout(), "%s %s\n", d.Dataset, d.SHA256)
			}
			return nil
		},
	}
}
