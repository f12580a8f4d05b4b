package views

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRebuildRemovesKilledBuildsLeftovers: a build killed before it removed
// its temporary folder leaves `.solbehave.duckdb.tmp-*`; the next build
// removes it and leaves nothing else.
func TestRebuildRemovesKilledBuildsLeftovers(t *testing.T) {
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "solbehave.duckdb")
	left := filepath.Join(dir, ".solbehave.duckdb.tmp-123456")
	if err := os.MkdirAll(left, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(left, "solbehave.duckdb"), []byte("half a database"), 0o644)
	if err := Build(dbPath, filepath.Join(dir, "warehouse")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(left); !os.IsNotExist(err) {
		t.Fatalf("the killed build's folder is still there: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() != "solbehave.duckdb" {
			t.Errorf("the build left %s", e.Name())
		}
	}
}
