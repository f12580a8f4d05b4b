package views

import (
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// LocationView is the view every built file has that says where its views
// read the warehouse: one row, (warehouse, layout), warehouse as the views
// name it (absolute, or relative to the file's folder).
const LocationView = "warehouse_location"

func locationViewSQL(loc location, root string) (string, error) {
	ref, err := warehouseRef(loc, root)
	if err != nil {
		return "", fmt.Errorf("views: %w", err)
	}
	name := QuoteIdent(LocationView)
	return "CREATE OR REPLACE VIEW " + name + " AS SELECT " + QuoteString(ref) + " AS warehouse, " +
		QuoteString(string(loc.layout)) + " AS layout;\n" +
		"COMMENT ON VIEW " + name + " IS " + QuoteString("Where this file's views read the Parquet warehouse: "+
		"warehouse is its root as the views name it, absolute or relative to the folder of the DuckDB file (layout). "+
		"Relative paths resolve against the working directory or file_search_path: open the file from its folder, "+
		"or SET file_search_path to it.") + ";", nil
}

// Location is what a built file says about its warehouse.
type Location struct {
	Layout    Layout
	Warehouse string // absolute path the views resolve to, given where the file is now
}

// ReadLocation reads the location of the file at dbPath through db (opened
// on that file).
func ReadLocation(db *sql.DB, dbPath string) (Location, error) {
	var ref, layout string
	if err := db.QueryRow("SELECT warehouse, layout FROM "+QuoteIdent(LocationView)).Scan(&ref, &layout); err != nil {
		return Location{}, fmt.Errorf("views: %s: %w", LocationView, err)
	}
	abs, err := resolveRef(dbPath, ref, Layout(layout))
	if err != nil {
		return Location{}, err
	}
	return Location{Layout: Layout(layout), Warehouse: abs}, nil
}

// fileLocation opens dbPath just to read its location.
func fileLocation(dbPath string) (Location, error) {
	db, err := Open(dbPath)
	if err != nil {
		return Location{}, err
	}
	defer db.Close()
	return ReadLocation(db, dbPath)
}

// existingLayout is the layout of the file at dbPath, Absolute when there is
// none (or it predates the location view).
func existingLayout(dbPath string) Layout { return inspect(dbPath).layout }

// Rebase rebuilds the file at dbPath, keeping its layout, when its views do
// not read the warehouse at root: the data folder moved (absolute paths), or
// the file was copied away from its warehouse (relative paths), or it
// predates the location view. It reports whether it rebuilt. A missing file
// is left missing; a file that cannot be opened is an error.
func Rebase(dbPath, root string) (bool, error) {
	if _, err := os.Stat(dbPath); errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	want, err := filepath.Abs(root)
	if err != nil {
		return false, fmt.Errorf("views: rebase: %w", err)
	}
	db, err := Open(dbPath)
	if err != nil {
		return false, fmt.Errorf("views: rebase: %w", err)
	}
	loc, err := ReadLocation(db, dbPath)
	db.Close()
	if err == nil && filepath.Clean(loc.Warehouse) == filepath.Clean(want) {
		return false, nil
	}
	layout := Absolute
	if err == nil {
		layout = loc.Layout
	}
	if err := BuildLayout(dbPath, root, layout); err != nil {
		return false, err
	}
	return true, nil
}

// OpenCurrent opens the views over the warehouse at root: the file at dbPath,
// rebuilt first when it reads another folder's warehouse, or the views in
// memory when there is no file. A file that cannot be rebuilt (the data
// folder was moved onto a read-only mount) does not stop a query: the views
// in memory read this folder's warehouse, and note says why.
func OpenCurrent(dbPath, root string) (db *sql.DB, note string, err error) {
	if _, err := os.Stat(dbPath); err != nil {
		db, err := OpenInMemory(root)
		return db, "", err
	}
	if _, err := Rebase(dbPath, root); err != nil {
		db, merr := OpenInMemory(root)
		return db, fmt.Sprintf("%s reads another folder's warehouse and cannot be rebuilt here (%v); "+
			"querying this folder's warehouse directly", dbPath, err), merr
	}
	db, err = Open(dbPath)
	return db, "", err
}

// Moved tells, without writing anything, whether the file at dbPath reads
// another warehouse than the one at root (the data folder was moved or
// copied), and which: from is the warehouse its views read. A missing file
// has moved false; a file without a location view counts as moved.
func Moved(dbPath, root string) (from string, moved bool, err error) {
	if _, err := os.Stat(dbPath); errors.Is(err, os.ErrNotExist) {
		return "", false, nil
	}
	want, err := filepath.Abs(root)
	if err != nil {
		return "", false, fmt.Errorf("views: %w", err)
	}
	loc, err := fileLocation(dbPath)
	if err != nil {
		return "(unknown: the file predates its location view)", true, nil
	}
	return loc.Warehouse, filepath.Clean(loc.Warehouse) != filepath.Clean(want), nil
}
