package views

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"

	_ "github.com/duckdb/duckdb-go/v2" // registers the "duckdb" driver

	"github.com/solbehave/solbehave/internal/atomicfile"
	"github.com/solbehave/solbehave/internal/inputfile"
	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
	sqlviews "github.com/solbehave/solbehave/sql"
)

// Build (re)creates the DuckDB file at dbPath with the views over the
// warehouse at warehouseRoot, keeping the [Layout] of the file it replaces
// ([Absolute] for a new file), whatever the file holds: `solbehave views`
// and a release call it. It builds into a fresh file beside dbPath and
// renames it into place only when complete, so the previous database stays
// valid (and queryable) until then, and a failed Build leaves it untouched.
func Build(dbPath, warehouseRoot string) error {
	return BuildLayout(dbPath, warehouseRoot, existingLayout(dbPath))
}

// BuildLayout is [Build] with the layout of the view paths chosen.
func BuildLayout(dbPath, warehouseRoot string, layout Layout) error {
	if layout != Absolute && layout != Relative {
		return fmt.Errorf("views: build: unknown layout %q (want %s or %s)", layout, Absolute, Relative)
	}
	_, err := update(dbPath, warehouseRoot, sqlviews.Files(), &layout)
	return err
}

// Outcome is what [Update] did to the file.
type Outcome string

const (
	// Unchanged: the file held the views a build would write; nothing was written.
	Unchanged Outcome = "unchanged"
	// DatasetsRemade: only the dataset views differed (a dataset got its
	// first part or lost its last, stale parts were left out or came back,
	// the warehouse moved); they were made again and the sql/ views kept,
	// since a view binds what it reads when it is queried.
	DatasetsRemade Outcome = "datasets remade"
	// Rebuilt: the sql/ views differed too, or the file was missing or
	// unreadable: it was built whole.
	Rebuilt Outcome = "rebuilt"
)

// Update is [Build] for the commands that write the warehouse: it compares
// the digests the file records (its views_build table) with those of the
// views a build would write now, and writes only what differs, atomically
// as Build does. New parts of a dataset that has parts need nothing: its
// view reads them through its glob. Binding every sql/ view takes seconds
// (paper_claims reads them all), so a stage with nothing to do need not pay
// for it.
func Update(dbPath, warehouseRoot string) (Outcome, error) {
	return update(dbPath, warehouseRoot, sqlviews.Files(), nil)
}

// update brings the file at dbPath up to the views over the warehouse at
// root with the sql/ files given: whole when layout is set (the file's own
// layout otherwise), else as much as differs.
func update(dbPath, root string, files []sqlviews.File, layout *Layout) (Outcome, error) {
	if err := os.MkdirAll(filepath.Dir(dbPath), 0o755); err != nil {
		return "", fmt.Errorf("views: build: %w", err)
	}
	// One build at a time per file, so the leftovers of killed builds can be
	// removed without touching a build in progress, and a build waited for
	// is not done again.
	unlock, err := lockBuild(dbPath)
	if err != nil {
		return "", fmt.Errorf("views: build: %w", err)
	}
	defer unlock()
	was := inspect(dbPath)
	loc := location{dbPath: dbPath, layout: was.layout}
	if layout != nil {
		loc.layout = *layout
	}
	set, err := newViewSet(loc, root, files)
	if err != nil {
		return "", err
	}
	outcome := Rebuilt
	if layout == nil && was.version != "" {
		outcome = set.compare(was)
	}
	if outcome == Unchanged {
		return outcome, nil
	}
	return outcome, write(dbPath, set, outcome)
}

// write builds the file in a private folder and swaps it into place: from
// nothing (Rebuilt), or from a copy of the file (DatasetsRemade).
func write(dbPath string, set viewSet, outcome Outcome) error {
	removeLeftovers(dbPath)
	// A private folder rather than a tmp file name: DuckDB creates the file
	// itself and may add a .wal beside it; RemoveAll clears both on failure.
	tmpDir, err := os.MkdirTemp(buildDir(filepath.Dir(dbPath)), "."+filepath.Base(dbPath)+".tmp-")
	if err != nil {
		return fmt.Errorf("views: build: %w", err)
	}
	defer os.RemoveAll(tmpDir)
	tmpDB := filepath.Join(tmpDir, filepath.Base(dbPath))
	if outcome == DatasetsRemade {
		if err := copyFile(dbPath, tmpDB); err != nil {
			return fmt.Errorf("views: refresh: %w", err)
		}
	}
	if err := buildFile(tmpDB, set, outcome == Rebuilt); err != nil {
		return err
	}
	// A WAL left by the old file would be replayed onto the new one.
	if err := os.Remove(dbPath + ".wal"); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("views: build: %w", err)
	}
	if err := place(tmpDB, dbPath); err != nil {
		return fmt.Errorf("views: build: %w", err)
	}
	return nil
}

// buildDir is where a file of dir is built: beside it, or in the system's
// temporary folder when dir has a '?', which DuckDB reads as the start of
// options in any path it writes (its WAL's included).
func buildDir(dir string) string {
	if strings.Contains(dir, "?") {
		return ""
	}
	return dir
}

// place moves the built file into place: a rename beside it, else a copy
// written atomically (the file holds views only: KiBs).
func place(built, dbPath string) error {
	if filepath.Dir(filepath.Dir(built)) == filepath.Dir(dbPath) {
		return os.Rename(built, dbPath)
	}
	f, err := os.Open(built)
	if err != nil {
		return err
	}
	defer f.Close()
	return atomicfile.Write(dbPath, 0o644, func(w io.Writer) error {
		_, err := io.Copy(w, f)
		return err
	})
}

// cacheFooters keeps the Parquet footers a build reads: each nested view
// re-reads every part's footer as it binds.
const cacheFooters = "SET GLOBAL parquet_metadata_cache = true"

// buildFile writes set's dataset views into the file at tmpDB, its sql/
// views too when whole, and the digests of what it wrote.
func buildFile(tmpDB string, set viewSet, whole bool) error {
	// The views bind while they are created: relative paths must resolve
	// against the final file's folder, not the temporary one's.
	dir, err := dbDir(set.loc.dbPath)
	if err != nil {
		return err
	}
	db, err := sql.Open("duckdb", tmpDB+"?"+url.Values{"file_search_path": {dir}}.Encode())
	if err != nil {
		return fmt.Errorf("views: build: %w", err)
	}
	ctx := context.Background()
	if _, err = db.Exec(cacheFooters); err != nil {
		err = fmt.Errorf("views: build: %w", err)
	} else if err = execAll(ctx, db, set.datasets); err == nil && whole {
		err = loadSQLViews(ctx, db, set.files)
	}
	if err == nil {
		err = writeStamp(ctx, db, set)
	}
	if err == nil {
		_, err = db.Exec("CHECKPOINT") // everything into the main file, no WAL
	}
	if cerr := db.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("views: build: close: %w", cerr)
	}
	return err
}

// Open opens a database built by [Build], read-only: several `solbehave sql`
// processes may query it while a stage writes new parts. file_search_path is
// set to the file's folder, so relative view paths resolve wherever the
// process runs.
func Open(dbPath string) (*sql.DB, error) {
	if _, err := os.Stat(dbPath); err != nil {
		return nil, fmt.Errorf("views: open %s (build it first): %w", dbPath, err)
	}
	settings, err := openSettings(dbPath)
	if err != nil {
		return nil, err
	}
	db, release, err := openFile(dbPath, settings)
	if err != nil {
		return nil, fmt.Errorf("views: open %s: %w", dbPath, err)
	}
	defer release() // read-only: the open file is all DuckDB uses from here on
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, fmt.Errorf("views: open %s: %w", dbPath, err)
	}
	return db, nil
}

// openFile opens the DuckDB file at path, read-only, with settings.
// duckdb-go cuts its DSN at the first '?', so a path with one in a folder's
// name is opened through a link to that folder from a private temporary
// folder, which release removes.
func openFile(path string, settings url.Values) (db *sql.DB, release func(), err error) {
	release = func() {}
	if strings.Contains(path, "?") {
		if path, release, err = linkedPath(path); err != nil {
			return nil, nil, err
		}
	}
	db, err = sql.Open("duckdb", path+"?"+settings.Encode())
	if err != nil {
		release()
		return nil, nil, err
	}
	return db, release, nil
}

func linkedPath(path string) (string, func(), error) {
	dir, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return "", nil, err
	}
	tmp, err := os.MkdirTemp("", "solbehave-duckdb-")
	if err != nil {
		return "", nil, err
	}
	link := filepath.Join(tmp, "folder")
	if err := os.Symlink(dir, link); err != nil {
		os.RemoveAll(tmp)
		return "", nil, err
	}
	return filepath.Join(link, filepath.Base(path)), func() { os.RemoveAll(tmp) }, nil
}

// OpenInMemory returns an in-memory database with the same views as [Build]
// would write, over the warehouse at warehouseRoot.
func OpenInMemory(warehouseRoot string) (*sql.DB, error) {
	w, err := pipeline.Selection(warehouseRoot)
	if err != nil {
		return nil, fmt.Errorf("views: %w", err)
	}
	return OpenSelectionInMemory(w)
}

// OpenDatasetsInMemory is [OpenInMemory] with the dataset views only, no
// sql/ view: for a reader of rows (digest, cost) that need not pay for
// binding the paper's views.
func OpenDatasetsInMemory(warehouseRoot string) (*sql.DB, error) {
	return OpenViewsInMemory(warehouseRoot)
}

// OpenViewsInMemory is [OpenInMemory] with the dataset views and only the
// sql/ views named, with those they read: a reader of a few views (a test
// of one) need not bind every view, which takes seconds (paper_claims reads
// them all).
func OpenViewsInMemory(warehouseRoot string, names ...string) (*sql.DB, error) {
	w, err := pipeline.Selection(warehouseRoot)
	if err != nil {
		return nil, fmt.Errorf("views: %w", err)
	}
	return openInMemory(w, reading(sqlviews.Files(), names))
}

// OpenSelectionInMemory is [OpenInMemory] over selected, the current parts
// of a warehouse as [pipeline.Currency.Selection] gives them, for a caller
// that has read the currency already.
func OpenSelectionInMemory(selected *warehouse.Warehouse) (*sql.DB, error) {
	return openInMemory(selected, sqlviews.Files())
}

// openInMemory is an in-memory database with the location view, the
// dataset views over w's parts and the sql/ views of files on top.
func openInMemory(w *warehouse.Warehouse, files []sqlviews.File) (*sql.DB, error) {
	db, err := sql.Open("duckdb", "?"+noExtensions().Encode())
	if err != nil {
		return nil, fmt.Errorf("views: open in memory: %w", err)
	}
	ctx := context.Background()
	err = createDatasetViews(ctx, db, location{layout: Absolute}, w)
	if err == nil {
		err = loadSQLViews(ctx, db, files)
	}
	if err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// createDatasetViews adds the location view and the dataset views over w's parts.
func createDatasetViews(ctx context.Context, db *sql.DB, loc location, w *warehouse.Warehouse) error {
	stmts, err := datasetStatements(loc, w)
	if err != nil {
		return err
	}
	return execAll(ctx, db, stmts)
}

// statement is one step of a build: SQL, and what it makes (for errors).
type statement struct{ what, sql string }

// datasetStatements create the location view and the dataset views over
// w's parts.
func datasetStatements(loc location, w *warehouse.Warehouse) ([]statement, error) {
	stmt, err := locationViewSQL(loc, w.Root)
	if err != nil {
		return nil, err
	}
	out := []statement{{LocationView + " view", stmt}}
	for _, d := range schemas.All() {
		stmt, err := datasetViewAt(loc, w, d)
		if err != nil {
			return nil, err
		}
		out = append(out, statement{"dataset view " + d.Name, stmt})
	}
	return out, nil
}

func execAll(ctx context.Context, db *sql.DB, stmts []statement) error {
	for _, s := range stmts {
		if _, err := db.ExecContext(ctx, s.sql); err != nil {
			return fmt.Errorf("views: %s: %w", s.what, err)
		}
	}
	return nil
}

// copyFile copies a built file (views only: KiBs) to dst.
func copyFile(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, b, 0o644)
}

// datasetViewSQL is the CREATE VIEW (and COMMENT) for one dataset, with
// absolute paths.
func datasetViewSQL(dbPath string, w *warehouse.Warehouse, d schemas.Dataset) (string, error) {
	return datasetViewAt(location{dbPath: dbPath, layout: Absolute}, w, d)
}

// datasetViewAt is the CREATE VIEW (and COMMENT) for one dataset: over its
// parts when it has any, else an empty view with the same typed columns. A
// dataset whose every part w lists is read by a glob (so parts a running
// stage rewrites or removes meanwhile never break a query); one where w
// leaves some out (stale units' parts, see pipeline.Selection), by the list
// of the parts w keeps.
func datasetViewAt(loc location, w *warehouse.Warehouse, d schemas.Dataset) (string, error) {
	all, err := warehouse.New(w.Root).Files(d.Name)
	if err != nil {
		return "", fmt.Errorf("views: %w", err)
	}
	files := w.Kept(all)
	var body string
	if len(files) > 0 {
		var list []string // nil: the glob reads every part
		if len(files) < len(all) {
			list = files
		}
		body, err = parquetSelect(loc, w, d, list, partitioned(files, d.Partitions))
		if err == nil {
			body, err = padded(body, d)
		}
	} else {
		body, err = emptySelect(d)
	}
	if err != nil {
		return "", err
	}
	name := QuoteIdent(d.Name)
	return "CREATE OR REPLACE VIEW " + name + " AS " + body + ";\n" +
		"COMMENT ON VIEW " + name + " IS " + QuoteString(docSummary(d.Doc)) + ";\n" +
		columnComments(d), nil
}

// docCommentRe matches a row of a schema doc's column table: name, type,
// description.
var docCommentRe = regexp.MustCompile("(?m)^\\| `([a-z0-9_]+)` \\| [^|]+ \\| (.*) \\|\\s*$")

// columnComments are the COMMENT ON COLUMN statements of a dataset view, one
// per column its schema doc describes (the hidden partition column left out),
// so a DuckDB client shows what each column means (duckdb_columns().comment).
func columnComments(d schemas.Dataset) string {
	var b strings.Builder
	for _, m := range docCommentRe.FindAllStringSubmatch(d.Doc, -1) {
		if slices.Contains(d.Partitions, m[1]) {
			continue
		}
		b.WriteString("COMMENT ON COLUMN " + QuoteIdent(d.Name) + "." + QuoteIdent(m[1]) + " IS " + QuoteString(m[2]) + ";\n")
	}
	return b.String()
}

func parquetSelect(loc location, w *warehouse.Warehouse, d schemas.Dataset, files []string, hive bool) (string, error) {
	source, err := parquetSource(loc, w, d.Name, files)
	if err != nil {
		return "", err
	}
	opts := "hive_partitioning = true, union_by_name = true"
	// The partition column (contract, the folder name) repeats contract_id:
	// hidden, so readers see each column once. COLUMNS(lambda) rather than
	// EXCLUDE: a release's one file per dataset may lack it.
	sel := "SELECT *"
	if len(d.Partitions) > 0 {
		quoted := make([]string, len(d.Partitions))
		for i, p := range d.Partitions {
			quoted[i] = QuoteString(p)
		}
		sel = "SELECT COLUMNS(c -> c NOT IN (" + strings.Join(quoted, ", ") + "))"
	}
	if hive && len(d.Partitions) > 0 {
		// Pin partition columns to VARCHAR: DuckDB would otherwise guess a type
		// from the folder values (all-digit values become BIGINT).
		types := make([]string, len(d.Partitions))
		for i, p := range d.Partitions {
			types[i] = QuoteString(p) + ": VARCHAR"
		}
		opts += ", hive_types = {" + strings.Join(types, ", ") + "}"
	}
	return sel + " FROM read_parquet(" + source + ", " + opts + ")", nil
}

// partitioned tells whether the parts sit in partition folders: a release's
// one file per dataset does not (it carries the partition columns itself),
// and DuckDB refuses hive_types for a key no path has.
func partitioned(files, keys []string) bool {
	for _, f := range files {
		for _, k := range keys {
			if strings.Contains(filepath.ToSlash(f), "/"+k+"=") {
				return true
			}
		}
	}
	return false
}

// emptySelect is a zero-row SELECT with the columns the parquet view would
// have: the row's columns (the partition columns are hidden there too).
func emptySelect(d schemas.Dataset) (string, error) {
	nulls, err := typedNulls(d, nil)
	if err != nil {
		return "", err
	}
	return "SELECT " + nulls + " WHERE false", nil
}

// typedNulls is a typed NULL for each column of d's schema but skip.
func typedNulls(d schemas.Dataset, skip []string) (string, error) {
	cols, err := rowColumns(d.Row)
	if err != nil {
		return "", fmt.Errorf("views: dataset %s: %w", d.Name, err)
	}
	var exprs []string
	for _, c := range cols {
		if !slices.Contains(skip, c.Name) {
			exprs = append(exprs, "CAST(NULL AS "+c.Type+") AS "+QuoteIdent(c.Name))
		}
	}
	return strings.Join(exprs, ", "), nil
}

// padded adds the schema's columns that no part has (parts written before
// a column was added, until their units run again) as typed NULLs, so every
// view over the dataset binds whichever parts there are.
func padded(body string, d schemas.Dataset) (string, error) {
	nulls, err := typedNulls(d, d.Partitions)
	if err != nil {
		return "", err
	}
	return body + " UNION ALL BY NAME SELECT " + nulls + " WHERE false", nil
}

// docSummary is the first paragraph of a dataset doc, after its title.
func docSummary(doc string) string {
	var para []string
	for _, line := range strings.Split(doc, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "#"):
			continue
		case line == "" && len(para) > 0:
			return strings.Join(para, " ")
		case line != "":
			para = append(para, line)
		}
	}
	return strings.Join(para, " ")
}

// lockBuild holds an flock on the folder itself (no lock file to leave
// behind) while one build runs.
func lockBuild(dbPath string) (unlock func(), err error) {
	d, err := os.Open(filepath.Dir(dbPath))
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(d.Fd()), syscall.LOCK_EX); err != nil {
		d.Close()
		return nil, err
	}
	return func() { d.Close() }, nil // closing the last descriptor releases the lock
}

// removeLeftovers deletes the temporary folders of builds that were killed
// before they could remove their own.
func removeLeftovers(dbPath string) {
	left, _ := inputfile.Glob(filepath.Dir(dbPath), "."+filepath.Base(dbPath)+".tmp-*")
	for _, p := range left {
		os.RemoveAll(p)
	}
}
