package main

import (
	"database/sql"
	"os"

	"github.com/spf13/cobra"

	"github.com/solbehave/solbehave/internal/views"
)

func newSQLCmd(g *globals) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   `sql [--format table|csv|json] "QUERY"`,
		Short: "Query the warehouse with DuckDB, every view loaded",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			db, err := g.openDB()
			if err != nil {
				return err
			}
			defer db.Close()
			return views.Query(cmd.Context(), db, args[0], format, cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&format, "format", "table", "output format: table, csv or json")
	return cmd
}

// openDB opens the built DuckDB file, or the views in memory when it is absent.
func (g *globals) openDB() (*sql.DB, error) {
	if _, err := os.Stat(g.dbPath()); err == nil {
		return views.Open(g.dbPath())
	}
	return views.OpenInMemory(g.env().Warehouse.Root)
}

// printSummary prints a short table of what the warehouse holds.
func printSummary(cmd *cobra.Command, g *globals) error {
	db, err := views.Open(g.dbPath())
	if err != nil {
		return err
	}
	defer db.Close()
	return views.Query(cmd.Context(), db, summaryQuery, "table", cmd.OutOrStdout())
}

const summaryQuery = `SELECT count(*) AS contracts,
  count(*) FILTER (WHERE r.kept) AS reproduced,
  count(*) FILTER (WHERE c.kept) AS kept_after_size_filter,
  sum(r.replayed) AS txs_replayed,
  round(avg(r.reproduced_fraction), 3) AS mean_reproduced_fraction,
  (SELECT count(*) FROM errors) AS errors
FROM reproducibility r JOIN contracts c USING (contract_id)`
