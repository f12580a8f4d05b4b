package views

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/solbehave/solbehave/schemas"
	sqlviews "github.com/solbehave/solbehave/sql"
)

// PromisedColumns are the columns a sql/ file promises its view returns, in
// order: the names on its `-- columns:` header lines (several lines
// concatenate), nil when it has none. This header is where a view documents
// its output; [Check] holds every view to it.
func PromisedColumns(f sqlviews.File) []string { return f.HeaderList("columns") }

// ViewNames lists the views of the database's main schema, sorted.
func ViewNames(ctx context.Context, db *sql.DB) ([]string, error) {
	names, err := Strings(ctx, db,
		"SELECT view_name FROM duckdb_views() WHERE NOT internal AND database_name = current_database() AND schema_name = 'main' ORDER BY view_name")
	if err != nil {
		return nil, fmt.Errorf("views: list: %w", err)
	}
	return names, nil
}

// Strings runs a query of one text column and returns its values in order.
func Strings(ctx context.Context, db *sql.DB, query string) ([]string, error) {
	rows, err := db.QueryContext(ctx, query)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// Check runs every view of db to the end and holds each to its documented
// columns: a sql/ view to its `-- columns:` header (which it must have), a
// dataset view to the column table of schemas/<dataset>.md. Every view must
// also carry a comment. It returns one error per broken view.
func Check(ctx context.Context, db *sql.DB) error {
	return eachView(ctx, db, true)
}

// RunAll is [Check] without the column promises: every view runs to the end
// and has a comment.
func RunAll(ctx context.Context, db *sql.DB) error {
	return eachView(ctx, db, false)
}

func eachView(ctx context.Context, db *sql.DB, promises bool) error {
	names, err := ViewNames(ctx, db)
	if err != nil {
		return err
	}
	promised := map[string][]string{}
	if promises {
		promised = promisedByView()
	}
	var errs []error
	for _, name := range names {
		if err := checkView(ctx, db, name, promises, promised); err != nil {
			errs = append(errs, fmt.Errorf("view %s: %w", name, err))
		}
	}
	return errors.Join(errs...)
}

// promisedByView maps every view whose columns are documented to them; a
// sql/ file without a header maps to nil (an error for Check).
func promisedByView() map[string][]string {
	out := map[string][]string{LocationView: {"warehouse", "layout"}}
	for _, d := range schemas.All() {
		var cols []string
		for _, c := range documentedColumns(d.Doc) {
			if !slices.Contains(d.Partitions, c) { // hidden from the view
				cols = append(cols, c)
			}
		}
		out[d.Name] = cols
	}
	for _, f := range sqlviews.Files() {
		out[f.View()] = PromisedColumns(f)
	}
	return out
}

// docColumnRe matches a row of a dataset doc's column table:
// | `name` | TYPE | meaning |
var docColumnRe = regexp.MustCompile("(?m)^\\| `([^`]+)` \\| ([^|]+?) \\|")

// documentedColumns are the names in a dataset doc's column table, in order.
func documentedColumns(doc string) []string {
	var cols []string
	for _, m := range docColumnRe.FindAllStringSubmatch(doc, -1) {
		cols = append(cols, m[1])
	}
	return cols
}

func checkView(ctx context.Context, db *sql.DB, name string, promises bool, promised map[string][]string) error {
	want, known := promised[name]
	switch {
	case promises && !known:
		return fmt.Errorf("not a dataset, not a sql/ file: no documented columns")
	case promises && want == nil:
		return fmt.Errorf("sql/%s.sql has no `-- columns:` header line", name)
	}
	var comment sql.NullString
	if err := db.QueryRowContext(ctx, "SELECT comment FROM duckdb_views() WHERE view_name = ? AND database_name = current_database()", name).Scan(&comment); err != nil {
		return err
	}
	if strings.TrimSpace(comment.String) == "" {
		return fmt.Errorf("no COMMENT ON VIEW")
	}
	got, n, err := runView(ctx, db, name)
	if err != nil {
		return err
	}
	if promises && !slices.Equal(got, want) {
		return fmt.Errorf("returns columns %v, its doc promises %v (%d rows)", got, want, n)
	}
	return nil
}

// ReadDatasets reads the location view and every dataset view of db to the
// end: the views that name Parquet files, so a client in which they resolve
// their paths resolves every view's (the sql/ views read only them). It is
// [RunAll] for a check of paths, without binding every sql/ view again.
func ReadDatasets(ctx context.Context, db *sql.DB) error {
	names := []string{LocationView}
	for _, d := range schemas.All() {
		names = append(names, d.Name)
	}
	for _, n := range names {
		if _, _, err := runView(ctx, db, n); err != nil {
			return fmt.Errorf("view %s: %w", n, err)
		}
	}
	return nil
}

// runView reads every row of a view, returning its column names and row count.
func runView(ctx context.Context, db *sql.DB, name string) ([]string, int, error) {
	rows, err := db.QueryContext(ctx, "SELECT * FROM "+QuoteIdent(name))
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, 0, err
	}
	n := 0
	err = EachRow(rows, func([]any) error { n++; return nil })
	return cols, n, err
}
