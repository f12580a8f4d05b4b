package views

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/solbehave/solbehave/internal/views/viewstest"
	sqlviews "github.com/solbehave/solbehave/sql"
)

// synthData writes a synthetic warehouse under a fresh data folder and
// builds its DuckDB file with the given layout; it returns the folder.
func synthData(t *testing.T, layout Layout) string {
	t.Helper()
	data := viewstest.SynthData(t, 7)
	if err := BuildLayout(filepath.Join(data, "solbehave.duckdb"), filepath.Join(data, "warehouse"), layout); err != nil {
		t.Fatal(err)
	}
	return data
}

// movedSynthData is synthData moved to a fresh folder called name: that
// folder, and the path of its DuckDB file.
func movedSynthData(t *testing.T, layout Layout, name string) (moved, dbPath string) {
	t.Helper()
	moved = filepath.Join(t.TempDir(), name)
	if err := os.Rename(synthData(t, layout), moved); err != nil {
		t.Fatal(err)
	}
	return moved, filepath.Join(moved, "solbehave.duckdb")
}

// TestEveryViewRunsAndKeepsItsPromise builds the file over an empty and
// over a synthetic warehouse, opens it through DuckDB and runs every view:
// each must return the columns its doc promises (`-- columns:` for sql/
// files, schemas/<dataset>.md for datasets) and carry a comment.
func TestEveryViewRunsAndKeepsItsPromise(t *testing.T) {
	for _, tc := range []struct {
		name string
		fill bool
	}{{"empty", false}, {"synthetic", true}} {
		t.Run(tc.name, func(t *testing.T) {
			data := t.TempDir()
			if tc.fill {
				data = viewstest.SynthData(t, 1)
			}
			dbPath := filepath.Join(data, "solbehave.duckdb")
			if err := Build(dbPath, filepath.Join(data, "warehouse")); err != nil {
				t.Fatal(err)
			}
			db := viewstest.OpenPlain(t, dbPath)
			if err := Check(ctx, db); err != nil {
				t.Fatal(err)
			}
			names, err := ViewNames(ctx, db)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range sqlviews.Files() {
				if !contains(names, f.View()) {
					t.Errorf("sql/%s: no view %s in the built file", f.Name, f.View())
				}
			}
			if tc.fill && count(t, db, "fig2_size_distribution") == 0 {
				t.Error("synthetic warehouse: fig2_size_distribution is empty")
			}
		})
	}
}

func TestCheckCatchesBrokenPromises(t *testing.T) {
	db := memDB(t)
	mustExec(t, db, "CREATE VIEW verify_summary AS SELECT 1 AS contract_id; COMMENT ON VIEW verify_summary IS 'x'")
	mustExec(t, db, "CREATE VIEW stray AS SELECT 1 AS a; COMMENT ON VIEW stray IS 'x'")
	err := Check(ctx, db)
	if err == nil || !strings.Contains(err.Error(), "view verify_summary: returns columns [contract_id]") ||
		!strings.Contains(err.Error(), "view stray: not a dataset") {
		t.Fatalf("Check: %v", err)
	}
	db = memDB(t)
	mustExec(t, db, "CREATE VIEW warehouse_location AS SELECT 'w' AS warehouse, 'absolute' AS layout")
	if err := Check(ctx, db); err == nil || !strings.Contains(err.Error(), "no COMMENT ON VIEW") {
		t.Fatalf("a view without comment: %v", err)
	}
	f := sqlviews.File{Name: "x.sql", Text: "-- x: t\n-- columns: a, b\n--columns: no\n-- columns: c,\nSELECT 1;"}
	if got := PromisedColumns(f); strings.Join(got, ",") != "a,b,c" {
		t.Errorf("PromisedColumns = %v", got)
	}
}

// TestAbsoluteLayoutOpensFromAnywhere: the default file works from any
// working directory in a client that knows nothing about solbehave.
func TestAbsoluteLayoutOpensFromAnywhere(t *testing.T) {
	data := synthData(t, Absolute)
	t.Chdir(t.TempDir())
	db := viewstest.OpenPlain(t, filepath.Join(data, "solbehave.duckdb"))
	readEveryDataset(t, db, "")
	if n := count(t, db, "replay_calls"); n == 0 {
		t.Fatal("replay_calls empty from another folder")
	}
}

// TestAbsoluteLayoutRebasedAfterMove: moving the data folder breaks the
// absolute paths; Rebase rewrites them, and only when needed.
func TestAbsoluteLayoutRebasedAfterMove(t *testing.T) {
	moved, dbPath := movedSynthData(t, Absolute, "moved")
	db := viewstest.OpenPlain(t, dbPath)
	if _, err := db.Exec("SELECT count(*) FROM replay_calls"); err == nil {
		t.Fatal("absolute paths still resolve after the move: the test moved nothing")
	}
	db.Close()
	rebuilt, err := Rebase(dbPath, filepath.Join(moved, "warehouse"))
	if err != nil || !rebuilt {
		t.Fatalf("Rebase after a move: rebuilt=%v err=%v", rebuilt, err)
	}
	t.Chdir(t.TempDir())
	db = viewstest.OpenPlain(t, dbPath)
	readEveryDataset(t, db, "")
	loc, err := ReadLocation(db, dbPath)
	if err != nil || loc.Layout != Absolute || loc.Warehouse != filepath.Join(moved, "warehouse") {
		t.Fatalf("location after rebase: %+v, %v", loc, err)
	}
	db.Close() // DuckDB refuses a second handle on one file with other settings
	if rebuilt, err := Rebase(dbPath, filepath.Join(moved, "warehouse")); err != nil || rebuilt {
		t.Fatalf("Rebase of a current file: rebuilt=%v err=%v", rebuilt, err)
	}
}

// TestRelativeLayoutMovesWithTheWarehouse: a relative file keeps working
// after the folder moves, from its folder or with file_search_path set to
// it, and through Open from anywhere; Build keeps the layout.
func TestRelativeLayoutMovesWithTheWarehouse(t *testing.T) {
	moved, dbPath := movedSynthData(t, Relative, "release")
	elsewhere := t.TempDir()

	// DuckDB refuses a second handle on one file with other settings, so
	// each client closes before the next opens.
	t.Chdir(moved)
	plain := viewstest.OpenPlain(t, "solbehave.duckdb")
	readEveryDataset(t, plain, "from the file's folder")
	plain.Close()
	t.Chdir(elsewhere)
	plain = viewstest.OpenPlain(t, dbPath)
	if _, err := plain.Exec("SELECT count(*) FROM replay_calls"); err == nil {
		t.Fatal("relative paths resolved from an unrelated folder without file_search_path")
	}
	plain.Close()
	withPath := viewstest.OpenPlain(t, dbPath, "SET file_search_path = "+QuoteString(moved))
	readEveryDataset(t, withPath, "with file_search_path")
	withPath.Close()
	db, err := Open(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	readEveryDataset(t, db, "through Open")
	var ref string
	if err := db.QueryRow("SELECT sql FROM duckdb_views() WHERE view_name = 'replay_calls'").Scan(&ref); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if rebuilt, err := Rebase(dbPath, filepath.Join(moved, "warehouse")); err != nil || rebuilt {
		t.Fatalf("a moved relative file needs no rebase: rebuilt=%v err=%v", rebuilt, err)
	}
	if err := Build(dbPath, filepath.Join(moved, "warehouse")); err != nil {
		t.Fatal(err)
	}
	if l := existingLayout(dbPath); l != Relative {
		t.Fatalf("Build turned a relative file into %s", l)
	}
	if strings.Contains(ref, moved) || !strings.Contains(ref, "'warehouse/replay_calls/") {
		t.Errorf("relative view names an absolute path: %s", ref)
	}
}

// readEveryDataset is ReadDatasets in the client under test: binding every
// sql/ view in each client would take most of a minute, and
// TestEveryViewRunsAndKeepsItsPromise runs those.
func readEveryDataset(t *testing.T, db *sql.DB, client string) {
	t.Helper()
	if err := ReadDatasets(ctx, db); err != nil {
		t.Fatalf("%s: %v", client, err)
	}
}

func TestBuildRejectsUnknownLayout(t *testing.T) {
	dir := t.TempDir()
	if err := BuildLayout(filepath.Join(dir, "x.duckdb"), dir, "sideways"); err == nil {
		t.Fatal("unknown layout: want an error")
	}
}

func mustExec(t *testing.T, db *sql.DB, q string) {
	t.Helper()
	if _, err := db.Exec(q); err != nil {
		t.Fatal(err)
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
