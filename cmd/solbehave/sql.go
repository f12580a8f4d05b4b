package main

import (
	"database/sql"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/solbehave/solbehave/internal/views"
)

func newSQLCmd(g *globals) *cobra.Command {
	var format, out string
	cmd := &cobra.Command{
		Use:   `sql [--format table|csv|json|arrow] [--out FILE] "QUERY"`,
		Short: "Query the warehouse with DuckDB, every view loaded",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			db, err := g.openDB()
			if err != nil {
				return err
			}
			defer db.Close()
			return writeResult(cmd, db, args[0], format, out) // export.go
		},
	}
	cmd.Flags().StringVar(&format, "format", "table", "output format: table, csv, json or arrow (an Arrow IPC file; needs --out)")
	cmd.Flags().StringVar(&out, "out", "", "write the result to FILE instead of stdout (- for stdout)")
	return cmd
}

// openDB opens the built DuckDB file, or the views in memory when it is
// absent. A file whose views read another folder (the data folder moved) is
// rebuilt first.
func (g *globals) openDB() (*sql.DB, error) {
	if _, err := os.Stat(g.dbPath()); err == nil {
		if _, err := views.Rebase(g.dbPath(), g.env().Warehouse.Root); err != nil {
			return nil, err
		}
		return views.Open(g.dbPath())
	}
	return views.OpenInMemory(g.env().Warehouse.Root)
}

// printSummary prints a short table of what the warehouse holds: the
// construction summary, then each paper table that has rows.
func printSummary(cmd *cobra.Command, g *globals) error {
	db, err := views.Open(g.dbPath())
	if err != nil {
		return err
	}
	defer db.Close()
	if err := views.Query(cmd.Context(), db, summaryQuery, "table", cmd.OutOrStdout()); err != nil {
		return err
	}
	for _, v := range summaryViews {
		var n int
		if db.QueryRowContext(cmd.Context(), "SELECT count(*) FROM "+v).Scan(&n) != nil || n == 0 {
			continue // a stage that has not run yet, or did not fill the view
		}
		fmt.Fprintf(cmd.OutOrStdout(), "\n%s\n", v)
		if err := views.Query(cmd.Context(), db, "SELECT * FROM "+v, "table", cmd.OutOrStdout()); err != nil {
			return err
		}
	}
	return nil
}

// summaryViews are the paper tables a run's summary shows when filled.
var summaryViews = []string{"table1_compile", "fig4_replay", "table4_coverage", "table5_o1", "table3_dcr_validation", "vuln_rate"}

const summaryQuery = `SELECT count(*) AS contracts,
  count(*) FILTER (WHERE r.kept) AS reproduced,
  count(*) FILTER (WHERE c.kept) AS kept_after_size_filter,
  sum(r.replayed) AS txs_replayed,
  round(avg(r.reproduced_fraction), 3) AS mean_reproduced_fraction,
  (SELECT count(*) FROM errors) AS errors
FROM reproducibility r JOIN contracts c USING (contract_id)`
