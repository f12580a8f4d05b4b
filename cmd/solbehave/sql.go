package main

import (
	"database/sql"
	"fmt"
	"os"
	"slices"

	"github.com/spf13/cobra"

	"github.com/solbehave/solbehave/internal/views"
)

func newSQLCmd(g *globals) *cobra.Command {
	var format, out string
	cmd := &cobra.Command{
		Use:   `sql [--format table|csv|ndjson|parquet|arrow] [--out FILE] "QUERY"`,
		Short: "Query the warehouse with DuckDB, every view loaded",
		Long: "Runs one DuckDB query over the data folder's views and prints the result: table (aligned text), csv, " +
			"ndjson (one JSON object per line; json is the same), or writes a binary file with --out: parquet (DuckDB's " +
			"COPY, zstd) or arrow (Arrow IPC, zstd-compressed buffers).",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := g.outsideData(out); err != nil {
				return err
			}
			db, err := g.openDB()
			if err != nil {
				return err
			}
			defer db.Close()
			if err := views.CheckReadOnly(cmd.Context(), db, args[0]); err != nil {
				return fmt.Errorf("%w: the warehouse is read-only here; write a result with --out FILE, outside the data folder", err)
			}
			return writeResult(cmd, db, args[0], format, out) // export.go
		},
	}
	cmd.Flags().StringVar(&format, "format", "table", "output format: table, csv, ndjson (or json), parquet or arrow (the last two need --out)")
	cmd.Flags().StringVar(&out, "out", "", "write the result to FILE instead of stdout (- for stdout)")
	return cmd
}

// openDB opens the built DuckDB file (rebuilt first when it reads another
// folder), or the views in memory when it is absent or cannot be rebuilt (a
// folder mounted read-only), saying so on stderr.
func (g *globals) openDB() (*sql.DB, error) {
	db, note, err := views.OpenCurrent(g.dbPath(), g.env().Warehouse.Root)
	if note != "" && g.logw != nil {
		fmt.Fprintln(g.logw, "note: "+note)
	}
	return db, err
}

// readDB opens the views for a command that writes nothing (status,
// errors): the DuckDB file when it reads this folder's warehouse, else the
// views in memory, after saying on stderr that the file reads another folder
// and that `solbehave views` rebuilds it. A missing data folder is an error.
func (g *globals) readDB(cmd *cobra.Command) (*sql.DB, error) {
	if err := g.requireData(); err != nil {
		return nil, err
	}
	root := g.env().Warehouse.Root
	if g.warnMoved(cmd) {
		return views.OpenInMemory(root)
	}
	if _, err := os.Stat(g.dbPath()); err == nil {
		return views.Open(g.dbPath())
	}
	return views.OpenInMemory(root)
}

// requireData fails when the data folder does not exist: nothing ran there.
func (g *globals) requireData() error {
	st, err := os.Stat(g.data)
	if err != nil || !st.IsDir() {
		return fmt.Errorf("no data folder %s: nothing has run there (give --data DIR, or run a stage first)", g.data)
	}
	return nil
}

// warnMoved says on stderr when the DuckDB file reads another folder's
// warehouse, and reports whether it does.
func (g *globals) warnMoved(cmd *cobra.Command) bool {
	from, moved, err := views.Moved(g.dbPath(), g.env().Warehouse.Root)
	if err != nil || !moved {
		return false
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "note: %s reads the warehouse at %s, not this folder's (the data folder was moved or copied); "+
		"shown here: this folder's data. Run `solbehave views --data %s` to rebuild the file.\n", g.dbPath(), from, g.data)
	return true
}

// printSummary prints the tables of the stages that just ran: the
// construction summary after crawl or verify, then each paper table a stage
// run fills, when it has rows.
func printSummary(cmd *cobra.Command, g *globals, ran []string) error {
	db, err := views.Open(g.dbPath())
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1) // the snapshots are temporary tables: one connection sees them
	did := map[string]bool{}
	for _, s := range ran {
		did[s] = true
	}
	var shown []string
	for _, v := range summaryViews {
		if slices.ContainsFunc(v.stages, func(s string) bool { return did[s] }) {
			shown = append(shown, v.view)
		}
	}
	views.Snapshot(cmd.Context(), db, append(slices.Clone(summaryHelpers), shown...)...)
	if did["crawl"] || did["verify"] {
		fmt.Fprintf(cmd.OutOrStdout(), "\n%s\n", summaryTitle)
		if err := views.Query(cmd.Context(), db, summaryQuery, "table", cmd.OutOrStdout()); err != nil {
			return err
		}
	}
	for _, v := range summaryViews {
		if !slices.ContainsFunc(v.stages, func(s string) bool { return did[s] }) {
			continue
		}
		var n int
		if db.QueryRowContext(cmd.Context(), "SELECT count(*) FROM "+v.view).Scan(&n) != nil || n == 0 {
			continue // a view this build lacks, or the stage did not fill it
		}
		fmt.Fprintf(cmd.OutOrStdout(), "\n%s\n", v.view)
		if err := views.Query(cmd.Context(), db, "SELECT * FROM "+v.view, "table", cmd.OutOrStdout()); err != nil {
			return err
		}
	}
	return nil
}

// summaryHelpers are the interval helpers the summary's tables share (each
// runs a bootstrap): computed once per summary.
var summaryHelpers = []string{"bootstrap_weights", "contract_outcomes", "rate_intervals", "contract_values",
	"value_intervals", "table4_contracts", "table6_contracts"}

// summaryViews are the paper tables a run's summary shows, each after the
// stages that change it.
var summaryViews = []struct {
	view   string
	stages []string
}{
	{"table2_compile", []string{"compile"}},
	{"fig4_replay", []string{"o2", "o3"}}, {"table4_coverage", []string{"o2", "o3"}},
	{"table5_o1", []string{"o1"}}, {"table3_dcr_validation", []string{"dcr"}}, {"vuln_introduced", []string{"vuln"}},
}

const summaryTitle = "construction: contracts verified, reproduced and kept"

const summaryQuery = `SELECT count(*) AS contracts,
  count(*) FILTER (WHERE r.kept) AS reproduced,
  count(*) FILTER (WHERE c.kept) AS kept_after_size_filter,
  sum(r.replayed) AS txs_replayed,
  avg(r.reproduced_fraction) AS mean_reproduced_rate,
  (SELECT count(*) FROM errors) AS errors
FROM reproducibility r JOIN contracts c USING (contract_id)`
