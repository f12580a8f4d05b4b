package views

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/solbehave/solbehave/internal/warehouse"
)

// parquetGlob is the one place that decides how a view definition names the
// files of a dataset. DuckDB resolves a relative path in read_parquet at
// query time against the process's working directory (or the
// file_search_path setting), not against the database file, so relative
// paths would break as soon as the DB is queried from another folder.
// Absolute paths work from anywhere but pin the DB to this warehouse's
// location. dbPath ("" in memory) is passed so that a later change can emit
// paths relative to the DB file (with file_search_path set at Open) without
// touching the callers.
func parquetGlob(dbPath string, w *warehouse.Warehouse, dataset string) (string, error) {
	_ = dbPath
	dir, err := filepath.Abs(w.DatasetDir(dataset))
	if err != nil {
		return "", fmt.Errorf("views: dataset %s: %w", dataset, err)
	}
	return filepath.ToSlash(filepath.Join(dir, "**", "*"+warehouse.Ext)), nil
}

// sqlString quotes s as a SQL string literal.
func sqlString(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// sqlIdent quotes s as a SQL identifier.
func sqlIdent(s string) string {
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}
