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
