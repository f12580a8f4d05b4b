package views

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestOnlyReadingQueriesRun: `solbehave sql` queries that read run; a COPY
// or EXPORT (to any path), INSTALL, LOAD, ATTACH, SET, CALL, PRAGMA, a catalog
// change and a reading query followed by a COPY are refused before anything runs,
// so no file appears; a query that would need an extension installs none.
func TestOnlyReadingQueriesRun(t *testing.T) {
	db := openMem(t, t.TempDir())
	ctx := context.Background()
	out := t.TempDir()
	for _, q := range []string{"SELECT 1", "select count(*) from errors;", "FROM errors", "WITH a AS (SELECT 1 AS x) SELECT x FROM a",
		"VALUES (1)", "DESCRIBE errors", "SHOW TABLES", "SUMMARIZE errors", "SELECT * FROM pragma_version()"} {
		if err := CheckReadOnly(ctx, db, q); err != nil {
			t.Errorf("%q: refused: %v", q, err)
		}
	}
	file := filepath.Join(out, "x.parquet")
	for _, q := range []string{"COPY (SELECT 1) TO '" + file + "'", "COPY errors TO '" + file + "'",
		"EXPORT DATABASE '" + filepath.Join(out, "db") + "'", "INSTALL httpfs", "LOAD httpfs", "FORCE INSTALL httpfs",
		"ATTACH '" + filepath.Join(out, "a.duckdb") + "'", "SET threads = 1", "CALL pragma_version()", "CHECKPOINT",
		"CREATE VIEW v AS SELECT 1", "DROP VIEW errors", "CREATE TABLE t AS SELECT 1", "PRAGMA enable_profiling",
		"SELECT 1; SELECT 2", "EXPLAIN COPY (SELECT 1) TO '" + file + "'",
		"SELECT 1; COPY (SELECT 1) TO '" + file + "'", "PIVOT errors ON class"} {
		if err := CheckReadOnly(ctx, db, q); !errors.Is(err, ErrNotReadOnly) {
			t.Errorf("%q: want it refused as not read-only, got %v", q, err)
		}
	}
	if entries, _ := os.ReadDir(out); len(entries) != 0 {
		t.Errorf("a refused query wrote %v", entries)
	}
	if err := Query(ctx, db, "SELECT * FROM read_xlsx('"+filepath.Join(out, "x.xlsx")+"')", "csv", &discard{}); err == nil {
		t.Error("a query needing an extension that is not built in ran")
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
