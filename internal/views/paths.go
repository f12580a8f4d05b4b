package views

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/solbehave/solbehave/internal/warehouse"
)

// Layout says how the views of a built DuckDB file name the warehouse's
// Parquet files. DuckDB resolves a relative path in read_parquet at query
// time against the process's working directory, or against the
// file_search_path setting when it is set; never against the database file
// (a view may not compute its path from the file's location either: table
// function arguments must be constants). So neither layout works everywhere,
// and each file says which one it has (the warehouse_location view):
type Layout string

const (
	// Absolute paths work from any working directory, in any client, but pin
	// the file to the warehouse's place: after the data folder moves, the
	// file must be rebuilt ([Rebase] does it, and every solbehave command
	// that opens the file calls it).
	Absolute Layout = "absolute"
	// Relative paths are relative to the folder of the DuckDB file, so the
	// file moves with the warehouse (a release folder). A client resolves
	// them by running in that folder or by setting file_search_path to it,
	// as [Open] does.
	Relative Layout = "relative"
)

// location is where a view set is written: the DuckDB file ("" in memory)
// and the layout of its paths.
type location struct {
	dbPath string
	layout Layout
}

// parquetGlob is the one place that decides how a view definition names the
// files of a dataset: an absolute glob, or one relative to the DB file's
// folder (see [Layout]). In memory there is no file, so paths are absolute.
func parquetGlob(loc location, w *warehouse.Warehouse, dataset string) (string, error) {
	dir, err := filepath.Abs(w.DatasetDir(dataset))
	if err != nil {
		return "", fmt.Errorf("views: dataset %s: %w", dataset, err)
	}
	if loc.layout == Relative && loc.dbPath != "" {
		if dir, err = relativeToDB(loc.dbPath, dir); err != nil {
			return "", fmt.Errorf("views: dataset %s: %w", dataset, err)
		}
	}
	if err := CheckGlobbable(dir); err != nil {
		return "", err
	}
	return globEscape.Replace(filepath.ToSlash(dir)) + "/**/*" + warehouse.Ext, nil
}

// globEscape makes a folder's path match itself in a DuckDB glob: '[', '?'
// and '*' in a name (`results [v2]`) become one-character classes.
var globEscape = strings.NewReplacer("[", "[[]", "?", "[?]", "*", "[*]")

// CheckGlobbable refuses a folder whose path no DuckDB glob can name: a
// backslash within a name (not a separator) matches neither itself nor any
// escape of it. Commands that write check the data folder before any stage
// runs, so a run does not end in a DuckDB file that cannot be built.
func CheckGlobbable(dir string) error {
	if strings.Contains(filepath.ToSlash(dir), `\`) {
		return fmt.Errorf("views: the path %s has a backslash in a folder name, which DuckDB's file globs cannot match; choose another folder", dir)
	}
	return nil
}

// parquetSource is what a dataset view reads, as a read_parquet argument:
// the dataset's glob, or the list of files when files is not nil, each
// named as parquetGlob names the folder.
func parquetSource(loc location, w *warehouse.Warehouse, dataset string, files []string) (string, error) {
	if files == nil {
		glob, err := parquetGlob(loc, w, dataset)
		return QuoteString(glob), err
	}
	quoted := make([]string, len(files))
	for i, f := range files {
		ref, err := warehouseRef(loc, f)
		if err != nil {
			return "", fmt.Errorf("views: dataset %s: %w", dataset, err)
		}
		quoted[i] = QuoteString(globEscape.Replace(ref))
	}
	return "[" + strings.Join(quoted, ", ") + "]", nil
}

// warehouseRef is the warehouse root as the views of loc name it.
func warehouseRef(loc location, root string) (string, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", err
	}
	if loc.layout == Relative && loc.dbPath != "" {
		return relativeToDB(loc.dbPath, abs)
	}
	return filepath.ToSlash(abs), nil
}

// resolveRef turns a warehouse_location reference back into an absolute
// path, given where the DB file is now.
func resolveRef(dbPath, ref string, layout Layout) (string, error) {
	if layout == Relative {
		dir, err := dbDir(dbPath)
		if err != nil {
			return "", err
		}
		return filepath.Join(dir, filepath.FromSlash(ref)), nil
	}
	return filepath.Clean(filepath.FromSlash(ref)), nil
}

func relativeToDB(dbPath, absPath string) (string, error) {
	dir, err := dbDir(dbPath)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(dir, absPath)
	if err != nil {
		return "", err
	}
	return filepath.ToSlash(rel), nil
}

// dbDir is the absolute folder of a DuckDB file: what relative view paths
// are relative to, and so what file_search_path must be for them.
func dbDir(dbPath string) (string, error) {
	abs, err := filepath.Abs(dbPath)
	if err != nil {
		return "", fmt.Errorf("views: %w", err)
	}
	return filepath.Dir(abs), nil
}

// openSettings open dbPath read-only with file_search_path set to its
// folder, so both layouts resolve.
func openSettings(dbPath string) (url.Values, error) {
	dir, err := dbDir(dbPath)
	if err != nil {
		return nil, err
	}
	q := noExtensions()
	q.Set("access_mode", "read_only")
	q.Set("file_search_path", dir)
	return q, nil
}

// noExtensions are the DSN settings of every database a query reaches: no
// extension is installed or loaded on a query's behalf (the ones the views
// need are built in).
func noExtensions() url.Values {
	return url.Values{"autoinstall_known_extensions": {"false"}, "autoload_known_extensions": {"false"}}
}

// QuoteString quotes s as a SQL string literal.
func QuoteString(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// QuoteIdent quotes s as a SQL identifier.
func QuoteIdent(s string) string {
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}
