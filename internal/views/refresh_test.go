package views

import (
	"path/filepath"
	"testing"

	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/schemas"
)

// Refresh remakes the dataset views (a dataset that had no part gets its
// rows) and keeps the sql/ views of the file, which still answer.
func TestRefreshRemakesDatasetViewsOnly(t *testing.T) {
	dir := t.TempDir()
	w := warehouse.New(filepath.Join(dir, "warehouse"))
	dbPath := filepath.Join(dir, "solbehave.duckdb")
	if err := Build(dbPath, w.Root); err != nil {
		t.Fatal(err)
	}
	if err := warehouse.Write(w.Path(schemas.Units.Name(), nil, "manifests"), []schemas.UnitRow{{Stage: "o2", Unit: "c", CPUMS: 5}}); err != nil {
		t.Fatal(err)
	}
	if err := Refresh(dbPath, w.Root); err != nil {
		t.Fatal(err)
	}
	db, err := Open(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if got := queryString(t, db, "SELECT count(*) || '/' || sum(cpu_s) FROM stage_costs"); got != "1/0.005" {
		t.Errorf("stage_costs after refresh: %s, want the new unit", got)
	}
	if got := queryString(t, db, "SELECT count(*) > 80 FROM paper_claims"); got != "true" {
		t.Errorf("paper_claims after refresh: %s", got)
	}
}
