package main

import (
	"database/sql"
	"fmt"
	"io"
	"path/filepath"
	"slices"

	"github.com/spf13/cobra"

	"github.com/solbehave/solbehave/internal/atomicfile"
	"github.com/solbehave/solbehave/internal/views"
)

func newExportCmd(g *globals) *cobra.Command {
	var format, out string
	cmd := &cobra.Command{
		Use:   "export DATASET [--format parquet|csv|ndjson|arrow] [--out FILE]",
		Short: "Write a dataset (or any view) as Parquet, CSV, newline-delimited JSON or a zstd Arrow IPC file",
		Long: "Writes every row of DATASET, a dataset or any view of the DuckDB file. parquet (the default) is " +
			"written by DuckDB's COPY (zstd); arrow is an Arrow IPC file with zstd-compressed buffers; csv and ndjson " +
			"(json is the same) are text. Without --out, text goes to stdout and a binary format to DATASET.parquet " +
			"or DATASET.arrow in the current folder; --out - sends any format to stdout.",
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
			if out == "" && views.Binary(format) {
				out = name + "." + views.Ext(format)
			}
			if err := g.outsideData(out); err != nil {
				return err
			}
			return writeResult(cmd, db, "SELECT * FROM "+views.QuoteIdent(name), format, out)
		},
	}
	cmd.Flags().StringVar(&format, "format", views.FormatParquet, "parquet, csv, ndjson (or json) or arrow")
	cmd.Flags().StringVar(&out, "out", "", "output file (default: stdout for text, DATASET.<format> for parquet and arrow; - for stdout)")
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
// into place, so a failed query leaves no half file. A binary format goes to
// stdout only when asked for with "-".
func writeResult(cmd *cobra.Command, db *sql.DB, query, format, out string) error {
	if out == "" || out == "-" {
		if out == "" && views.Binary(format) {
			return fmt.Errorf("--format %s writes a binary file: give --out FILE (or --out - for stdout)", format)
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

// outsideData refuses an output file inside the data folder (however the
// path reaches it: "..", links): a query's result written there could replace
// a part the manifests vouch for. "" and "-" are stdout.
func (g *globals) outsideData(out string) error {
	if out == "" || out == "-" {
		return nil
	}
	return g.refuseInsideData(filepath.Dir(out), out, "which only the stages write; give a file outside it")
}

// refuseInsideData refuses --out (dir being the folder it writes) inside
// the data folder at any depth, saying so when a link leads it there.
func (g *globals) refuseInsideData(dir, out, why string) error {
	data, err := resolved(g.data)
	if err != nil {
		return err
	}
	target, err := resolved(dir)
	if err != nil {
		return err
	}
	if !within(data, target) {
		return nil
	}
	via := ""
	absData, _ := filepath.Abs(g.data)
	if absDir, _ := filepath.Abs(dir); !within(absData, absDir) { // only a link can lead there
		via = " through a link (it resolves to " + target + ")"
	}
	return fmt.Errorf("--out %s is inside the data folder %s%s, %s", out, g.data, via, why)
}

// within tells whether path is root or below it.
func within(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && (rel == "." || filepath.IsLocal(rel))
}

// resolved is path made absolute with its links resolved, as far as it
// exists (the output's folder may be created by the write).
func resolved(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	var rest []string
	for {
		if r, err := filepath.EvalSymlinks(abs); err == nil {
			return filepath.Join(append([]string{r}, rest...)...), nil
		}
		parent := filepath.Dir(abs)
		if parent == abs {
			return abs, nil
		}
		rest = append([]string{filepath.Base(abs)}, rest...)
		abs = parent
	}
}
