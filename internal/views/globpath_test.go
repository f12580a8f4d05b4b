package views

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/schemas"
)

// TestDataFoldersWithGlobCharacters: a data folder whose path has DuckDB
// glob characters ('[', ']', '?', '*') builds, opens and reads its own rows,
// in memory and from the file, and never a sibling's that the unescaped
// glob would also match.
func TestDataFoldersWithGlobCharacters(t *testing.T) {
	for _, name := range []string{"results [v2]", "what?", "all*of", "a[b]?*c"} {
		dir := filepath.Join(t.TempDir(), name)
		w := writeCallsAt(t, filepath.Join(dir, "warehouse"), calls())
		sibling := strings.NewReplacer("[v2]", "v", "[b]", "b", "?", "X", "*", "XY").Replace(name) // what the unescaped glob matches too
		writeCallsAt(t, filepath.Join(filepath.Dir(dir), sibling, "warehouse"), calls()[:1])
		dbPath := filepath.Join(dir, "solbehave.duckdb")
		if err := Build(dbPath, w); err != nil {
			t.Errorf("%q: build: %v", name, err)
			continue
		}
		db, err := Open(dbPath)
		if err != nil {
			t.Errorf("%q: open: %v", name, err)
			continue
		}
		if n := count(t, db, "verify_calls"); n != int64(len(calls())) {
			t.Errorf("%q: the file reads %d rows, want %d", name, n, len(calls()))
		}
		db.Close()
		if n := count(t, openMem(t, w), "verify_calls"); n != int64(len(calls())) {
			t.Errorf("%q: in memory, %d rows, want %d", name, n, len(calls()))
		}
	}
}

func writeCallsAt(t *testing.T, root string, rows []schemas.VerifyCall) string {
	t.Helper()
	writeCalls(t, warehouse.New(root), rows)
	return root
}

// TestReadOnlyMovedFolderIsQueried: a finished data folder mounted
// read-only at another path (its file's views read the old path and cannot
// be rebuilt there) is still queried, through views in memory over its own
// warehouse, with a note saying so. It needs a bind mount (root).
func TestReadOnlyMovedFolderIsQueried(t *testing.T) {
	dir := t.TempDir()
	w := writeCallsAt(t, filepath.Join(dir, "warehouse"), calls())
	if err := Build(filepath.Join(dir, "solbehave.duckdb"), w); err != nil {
		t.Fatal(err)
	}
	mounted := t.TempDir()
	if out, err := exec.Command("mount", "--bind", dir, mounted).CombinedOutput(); err != nil {
		t.Skipf("no bind mount here (needs root): %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", mounted).Run() })
	if out, err := exec.Command("mount", "-o", "remount,bind,ro", mounted).CombinedOutput(); err != nil {
		t.Skipf("no read-only remount here: %v %s", err, out)
	}
	db, note, err := OpenCurrent(filepath.Join(mounted, "solbehave.duckdb"), filepath.Join(mounted, "warehouse"))
	if err != nil {
		t.Fatalf("a read-only moved folder cannot be queried: %v", err)
	}
	defer db.Close()
	if n := count(t, db, "verify_calls"); n != int64(len(calls())) || !strings.Contains(note, "cannot be rebuilt") {
		t.Errorf("got %d rows (want %d), note %q", n, len(calls()), note)
	}
}
