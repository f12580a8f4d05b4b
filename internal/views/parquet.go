package views

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// FormatParquet is a Parquet file (zstd) as DuckDB's COPY writes it: every
// DuckDB type keeps its Parquet logical type, and any Parquet reader opens it.
const FormatParquet = "parquet"

// copyParquet has DuckDB COPY the query's result into a Parquet file in a
// private folder, then streams that file to w (COPY writes files only).
func copyParquet(ctx context.Context, db *sql.DB, query string, w io.Writer) error {
	dir, err := os.MkdirTemp("", "solbehave-parquet-")
	if err != nil {
		return fmt.Errorf("views: parquet: %w", err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "result.parquet")
	q := strings.TrimRight(strings.TrimSpace(query), "; \t\n")
	stmt := "COPY (" + q + ") TO " + QuoteString(path) + " (FORMAT parquet, COMPRESSION zstd)"
	if _, err := db.ExecContext(ctx, stmt); err != nil {
		return fmt.Errorf("views: query: %w", err)
	}
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("views: parquet: %w", err)
	}
	defer f.Close()
	if _, err := io.Copy(w, f); err != nil {
		return fmt.Errorf("views: parquet: %w", err)
	}
	return nil
}
