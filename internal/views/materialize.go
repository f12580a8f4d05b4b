package views

import (
	"context"
	"database/sql"
	"fmt"
	"slices"

	sqlviews "github.com/solbehave/solbehave/sql"
)

// Materialize replaces each named sql/ view of db by a table of its rows,
// dependencies first, so that every later query (and every view reading
// it) reads the rows instead of computing the view again: the interval views
// each run a bootstrap, and paper_claims reads them all. A view that cannot
// be computed (a dataset missing) stays a view, failing where it is read as
// it did. db changes: use it for one reader (the report's own).
func Materialize(ctx context.Context, db *sql.DB, names ...string) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	var files []sqlviews.File
	for _, f := range sqlviews.Files() {
		if slices.Contains(names, f.View()) {
			files = append(files, f)
		}
	}
	for _, f := range dependencyOrder(files) {
		name, tmp := QuoteIdent(f.View()), QuoteIdent("materializing_"+f.View())
		if _, err := conn.ExecContext(ctx, "CREATE TABLE "+tmp+" AS SELECT * FROM "+name); err != nil {
			continue // left a view: its reader meets the error
		}
		for _, q := range []string{"DROP VIEW " + name, "ALTER TABLE " + tmp + " RENAME TO " + name} {
			if _, err := conn.ExecContext(ctx, q); err != nil {
				return fmt.Errorf("views: materializing %s: %w", f.View(), err)
			}
		}
	}
	return nil
}

// Snapshot copies each named sql/ view of db that can be computed into a
// temporary table of the same name, dependencies first; a temporary table
// shadows the view for every later query on the connection, views reading
// it included, so a reader that shows several views computes each shared
// helper once. It leaves db's files as they are (temporary tables live in
// memory), and db must hold a single connection (db.SetMaxOpenConns(1)).
func Snapshot(ctx context.Context, db *sql.DB, names ...string) {
	var files []sqlviews.File
	for _, f := range sqlviews.Files() {
		if slices.Contains(names, f.View()) {
			files = append(files, f)
		}
	}
	for _, f := range dependencyOrder(files) {
		name := QuoteIdent(f.View())
		db.ExecContext(ctx, "CREATE TEMP TABLE "+name+" AS SELECT * FROM main."+name) // one that fails stays a view
	}
}
