package views

import (
	"context"
	"database/sql"
	"errors"
	"testing"

	"github.com/solbehave/solbehave/schemas"
)

// TestDigestLeavesPointersOut: two tables that differ only in a pointer
// column (an artifact id) digest the same; a difference in any other column
// changes the digest.
func TestDigestLeavesPointersOut(t *testing.T) {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	digest := func(rows string) string {
		t.Helper()
		if _, err := db.Exec("CREATE OR REPLACE TABLE t AS SELECT * FROM (VALUES " + rows + ") v(code_sha256, artifact, elapsed_ms)"); err != nil {
			t.Fatal(err)
		}
		d, err := datasetDigest(ctx, db, schemas.Dataset{Name: "t", Volatile: []string{"elapsed_ms"}, Pointers: []string{"artifact"}}, "")
		if err != nil {
			t.Fatal(err)
		}
		return d.SHA256
	}
	base := digest("('c1', 'a1', 5), ('c2', 'a2', 7)")
	if got := digest("('c1', 'b1', 9), ('c2', 'b2', 1)"); got != base {
		t.Error("other artifact ids (and timings) changed the digest")
	}
	if got := digest("('c1', 'a1', 5), ('c3', 'a2', 7)"); got == base {
		t.Error("other code left the digest unchanged")
	}
}

// TestModelDigestsRefuseAModelWithoutRows: a misspelt model (`mut`,
// `mutant%`) has no rows; its digests would be the empty input's, so a
// before/after comparison would pass vacuously. Refused instead.
func TestModelDigestsRefuseAModelWithoutRows(t *testing.T) {
	db, err := OpenDatasetsInMemory(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, model := range []string{"mut", "mutant%"} {
		if _, err := ModelDigests(t.Context(), db, model); !errors.Is(err, ErrNoModelRows) {
			t.Errorf("--model %q: err %v, want ErrNoModelRows", model, err)
		}
	}
	if _, err := ModelDigests(t.Context(), db, ""); err != nil {
		t.Errorf("every row of an empty warehouse: %v", err)
	}
}
