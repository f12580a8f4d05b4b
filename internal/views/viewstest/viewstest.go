// Package viewstest is what tests of the views and of their readers share:
// a data folder over the synthetic warehouse, and a built DuckDB file
// opened the way a client that knows nothing about solbehave would.
package viewstest

import (
	"database/sql"
	"path/filepath"
	"testing"

	_ "github.com/duckdb/duckdb-go/v2" // the "duckdb" driver

	"github.com/solbehave/solbehave/internal/views/synth"
)

// SynthData is a fresh data folder whose warehouse holds the synthetic
// rows of seed (every dataset filled); its DuckDB file is the caller's to
// build.
func SynthData(t testing.TB, seed int64) string {
	t.Helper()
	data := filepath.Join(t.TempDir(), "data")
	if err := synth.Write(filepath.Join(data, "warehouse"), seed); err != nil {
		t.Fatal(err)
	}
	return data
}

// OpenPlain opens path read-only with no solbehave settings, on one
// connection so a SET among setup sticks, and closes it when t ends.
func OpenPlain(t testing.TB, path string, setup ...string) *sql.DB {
	t.Helper()
	db, err := sql.Open("duckdb", path+"?access_mode=read_only")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	for _, s := range setup {
		if _, err := db.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	return db
}
