package views

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"strconv"

	"github.com/solbehave/solbehave/pipeline"
	sqlviews "github.com/solbehave/solbehave/sql"
)

// StampTable is the table of a built file that records what its views were
// built from: one row, the digests [Update] compares.
const StampTable = "views_build"

// buildFormat enters the sql/ digest: bump it when a build starts writing
// something the statements and files it digests do not say, so that every
// file built before is built again.
const buildFormat = "1"

// stamp is what a file's views were built from, as two digests: the
// dataset views apart from the sql/ ones, so that a change of the former
// alone remakes them only.
type stamp struct {
	Datasets string // the location view's and every dataset view's statement
	SQL      string // the sql/ files, the DuckDB library's version, buildFormat
}

// viewSet is what a build writes: where, the dataset views over the
// warehouse's current parts, and the sql/ files.
type viewSet struct {
	loc      location
	datasets []statement
	files    []sqlviews.File
}

// newViewSet is the view set over the current parts of the warehouse at
// root (the parts of stale units left out, see pipeline.Selection).
func newViewSet(loc location, root string, files []sqlviews.File) (viewSet, error) {
	w, err := pipeline.Selection(root)
	if err != nil {
		return viewSet{}, fmt.Errorf("views: %w", err)
	}
	stmts, err := datasetStatements(loc, w)
	if err != nil {
		return viewSet{}, err
	}
	return viewSet{loc: loc, datasets: stmts, files: files}, nil
}

// stamp digests the set as a DuckDB library of the given version builds it.
// A dataset view names its parts by a glob while it reads them all, so new
// parts leave its statement, and the digest, as they were.
func (s viewSet) stamp(version string) stamp {
	var datasets, views []string
	for _, st := range s.datasets {
		datasets = append(datasets, st.sql)
	}
	views = append(views, buildFormat, version)
	for _, f := range s.files {
		views = append(views, f.Name, f.Text)
	}
	return stamp{Datasets: digestOf(datasets), SQL: digestOf(views)}
}

// compare says what a build must do to a file that was built as was.
func (s viewSet) compare(was built) Outcome {
	want := s.stamp(was.version)
	switch {
	case was.stamp.SQL != want.SQL:
		return Rebuilt
	case was.stamp.Datasets != want.Datasets:
		return DatasetsRemade
	}
	return Unchanged
}

// digestOf is a SHA-256 over parts, each length-prefixed so that no two
// lists share a digest by moving text from one part to the next.
func digestOf(parts []string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(strconv.Itoa(len(p)) + ":" + p))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// built is what a file on disk says about its build.
type built struct {
	layout  Layout // Absolute when the file says none
	stamp   stamp  // zero for a file built before stamps
	version string // the DuckDB library that read the stamp; "" when there was none to read
}

// inspect reads the file at dbPath's layout and stamp in one open.
func inspect(dbPath string) built {
	was := built{layout: Absolute}
	db, err := Open(dbPath)
	if err != nil {
		return was
	}
	defer db.Close()
	if loc, err := ReadLocation(db, dbPath); err == nil {
		was.layout = loc.Layout
	}
	var st stamp
	var version string
	q := "SELECT datasets_digest, sql_digest, (SELECT library_version FROM pragma_version()) FROM " + QuoteIdent(StampTable)
	if db.QueryRow(q).Scan(&st.Datasets, &st.SQL, &version) == nil {
		was.stamp, was.version = st, version
	}
	return was
}

// writeStamp records set's digests in the file being built through db.
func writeStamp(ctx context.Context, db *sql.DB, set viewSet) error {
	var version string
	if err := db.QueryRowContext(ctx, "SELECT library_version FROM pragma_version()").Scan(&version); err != nil {
		return fmt.Errorf("views: build: %w", err)
	}
	st := set.stamp(version)
	name := QuoteIdent(StampTable)
	q := "CREATE OR REPLACE TABLE " + name + " AS SELECT " + QuoteString(st.Datasets) + " AS datasets_digest, " +
		QuoteString(st.SQL) + " AS sql_digest;\n" +
		"COMMENT ON TABLE " + name + " IS " + QuoteString("What this file's views were built from: digests of the "+
		"dataset views' statements and of the sql/ files; a command that writes the warehouse builds the views "+
		"again only when these differ from its own.") + ";"
	if _, err := db.ExecContext(ctx, q); err != nil {
		return fmt.Errorf("views: build: %s: %w", StampTable, err)
	}
	return nil
}
