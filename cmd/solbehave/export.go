package main

import (
	"database/sql"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/solbehave/solbehave/internal/atomicfile"
	"github.com/solbehave/solbehave/internal/views"
)

func newExportCmd(g *globals) *cobra.Command {
	var format, out string
	cmd := &cobra.Command{
		Use:   "export DATASET [--format arrow|csv|json] [--out FILE]",
		Short: "Write a dataset (or any view) as an Arrow IPC file, CSV or JSON",
		Long: "Writes every row of DATASET, a dataset or any view of the DuckDB file, to FILE " +
			"(default DATASET.arrow, .csv or .json in the current folder; - for stdout). " +
			"An Arrow IPC file reads in pandas (read_feather), polars (read_ipc) and DuckDB without conversion.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			db, err := g.openDB()
			if err != nil {
				return err
			}
			defer db.Close()
			name := args[0]
			if err := requireView(cmd, db, name); err != nil {
				return err
			}
			if out == "" {
				out = name + "." + strings.ToLower(format)
			}
			return writeResult(cmd, db, "SELECT * FROM "+quoteIdent(name), format, out)
		},
	}
	cmd.Flags().StringVar(&format, "format", views.FormatArrow, "arrow, csv or json")
	cmd.Flags().StringVar(&out, "out", "", "output file (default DATASET.<format>; - for stdout)")
	return cmd
}

func requireView(cmd *cobra.Command, db *sql.DB, name string) error {
	names, err := views.ViewNames(cmd.Context(), db)
	if err != nil {
		return err
	}
	if !slices.Contains(names, name) {
		return fmt.Errorf("no dataset or view %q (try: solbehave sql \"SELECT view_name FROM duckdb_views() WHERE NOT internal\")", name)
	}
	return nil
}

// writeResult runs query and writes its result in format to out: stdout when
// out is "" or "-", else a file written beside its final name and renamed
// into place, so a failed query leaves no half file. Arrow, being binary,
// goes to stdout only when asked for with "-".
func writeResult(cmd *cobra.Command, db *sql.DB, query, format, out string) error {
	if out == "" || out == "-" {
		if out == "" && strings.EqualFold(format, views.FormatArrow) {
			return fmt.Errorf("--format arrow writes a binary file: give --out FILE (or --out - for stdout)")
		}
		return views.Query(cmd.Context(), db, query, format, cmd.OutOrStdout())
	}
	err := atomicfile.Write(out, 0o644, func(w io.Writer) error {
		return views.Query(cmd.Context(), db, query, format, w)
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "wrote %s\n", out)
	return nil
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
