// Package viewstest opens a built DuckDB file for tests the way a client
// that knows nothing about solbehave would, so the tests see what such a
// client sees.
package viewstest

import (
	"database/sql"
	"testing"

	_ "github.com/duckdb/duckdb-go/v2" // the "duckdb" driver
)

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
