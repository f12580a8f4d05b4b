package views

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/schemas"
	sqlviews "github.com/solbehave/solbehave/sql"
)

// unitsFixture is a built file over a warehouse whose units dataset has one
// part, with the file's identity as built.
func unitsFixture(t *testing.T) (w *warehouse.Warehouse, dbPath string) {
	t.Helper()
	dir := t.TempDir()
	w = warehouse.New(filepath.Join(dir, "warehouse"))
	writeUnit(t, w, "a")
	dbPath = filepath.Join(dir, "solbehave.duckdb")
	if err := Build(dbPath, w.Root); err != nil {
		t.Fatal(err)
	}
	return w, dbPath
}

// writeUnit writes a units part (file name) of one o2 unit costing 5 ms.
func writeUnit(t *testing.T, w *warehouse.Warehouse, name string) {
	t.Helper()
	if err := warehouse.Write(w.Path(schemas.Units.Name(), nil, name), []schemas.UnitRow{{Stage: "o2", Unit: name, CPUMS: 5}}); err != nil {
		t.Fatal(err)
	}
}

func mustUpdate(t *testing.T, dbPath, root string, files []sqlviews.File, want Outcome) {
	t.Helper()
	got, err := update(dbPath, root, files, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("update: %s, want %s", got, want)
	}
}

func fileInfo(t *testing.T, path string) os.FileInfo {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi
}

func openedQuery(t *testing.T, dbPath, q string) string {
	t.Helper()
	db, err := Open(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	return queryString(t, db, q)
}

// Nothing changed, or only a part was added to a dataset with parts: Update
// leaves the file as it is (the same file, not a rebuilt one), and the new
// part is read through the dataset view's glob.
func TestUpdateLeavesAnUnchangedFileAlone(t *testing.T) {
	w, dbPath := unitsFixture(t)
	before := fileInfo(t, dbPath)
	mustUpdate(t, dbPath, w.Root, sqlviews.Files(), Unchanged)
	writeUnit(t, w, "b")
	mustUpdate(t, dbPath, w.Root, sqlviews.Files(), Unchanged)
	if !os.SameFile(before, fileInfo(t, dbPath)) {
		t.Error("the file was replaced: Update built views that had not changed")
	}
	if got := openedQuery(t, dbPath, "SELECT count(*) || '/' || sum(cpu_ms) FROM units"); got != "2/10" {
		t.Errorf("units after a new part: %s, want both units", got)
	}
}

// A dataset that gets its first part, or loses its last, has its view made
// again (its empty view is a placeholder, and a glob that matches nothing
// fails); the sql/ views of the file are kept and still answer.
func TestUpdateRemakesDatasetViewsWhenADatasetAppears(t *testing.T) {
	dir := t.TempDir()
	w := warehouse.New(filepath.Join(dir, "warehouse"))
	dbPath := filepath.Join(dir, "solbehave.duckdb")
	if err := Build(dbPath, w.Root); err != nil {
		t.Fatal(err)
	}
	writeUnit(t, w, "a")
	mustUpdate(t, dbPath, w.Root, sqlviews.Files(), DatasetsRemade)
	if got := openedQuery(t, dbPath, "SELECT count(*) || '/' || sum(cpu_s) FROM stage_costs"); got != "1/0.005" {
		t.Errorf("stage_costs after the first part: %s, want the new unit", got)
	}
	if got := openedQuery(t, dbPath, "SELECT count(*) > 80 FROM paper_claims"); got != "true" {
		t.Errorf("paper_claims after the dataset views were remade: %s", got)
	}
	if err := os.RemoveAll(w.DatasetDir(schemas.Units.Name())); err != nil {
		t.Fatal(err)
	}
	mustUpdate(t, dbPath, w.Root, sqlviews.Files(), DatasetsRemade)
	if got := openedQuery(t, dbPath, "SELECT count(*) FROM stage_costs"); got != "0" {
		t.Errorf("stage_costs after the last part went: %s rows", got)
	}
}

// A changed sql/ file, or a file that records no build (built before the
// stamp), is built whole.
func TestUpdateRebuildsWhenASQLFileChanges(t *testing.T) {
	w, dbPath := unitsFixture(t)
	files := sqlviews.Files()
	for i, f := range files {
		if f.View() == "stage_costs" {
			files[i].Text = strings.Replace(f.Text, "COMMENT ON VIEW stage_costs IS '", "COMMENT ON VIEW stage_costs IS 'Changed. ", 1)
		}
	}
	mustUpdate(t, dbPath, w.Root, files, Rebuilt)
	comment := "SELECT comment FROM duckdb_views() WHERE view_name = 'stage_costs'"
	if got := openedQuery(t, dbPath, comment); !strings.HasPrefix(got, "Changed. ") {
		t.Errorf("stage_costs' comment after its file changed: %q", got)
	}
	db, err := sql.Open("duckdb", dbPath)
	if err != nil {
		t.Fatal(err)
	}
	mustExec(t, db, "DROP TABLE "+StampTable)
	db.Close()
	mustUpdate(t, dbPath, w.Root, sqlviews.Files(), Rebuilt)
	if got := openedQuery(t, dbPath, comment); strings.HasPrefix(got, "Changed. ") {
		t.Errorf("stage_costs' comment after a stampless file was updated: %q", got)
	}
}
