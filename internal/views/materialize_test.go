package views

import (
	"context"
	"database/sql"
	"testing"

	"github.com/solbehave/solbehave/internal/warehouse"
)

// A materialized view keeps its rows and every view reading it still binds;
// one whose inputs are missing stays a view.
func TestMaterializeKeepsRowsAndDependents(t *testing.T) {
	db, err := OpenInMemory(warehouse.New(t.TempDir()).Root)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	before := queryString(t, db, "SELECT count(*) || '/' || count(DISTINCT b) FROM bootstrap_weights")
	claims := queryString(t, db, "SELECT count(*) FROM paper_claims")
	if err := Materialize(ctx, db, "bootstrap_weights", "rate_intervals", "no_such_view"); err != nil {
		t.Fatal(err)
	}
	var kind string
	if err := db.QueryRow("SELECT table_type FROM information_schema.tables WHERE table_name = 'rate_intervals'").Scan(&kind); err != nil || kind != "BASE TABLE" {
		t.Fatalf("rate_intervals is %q (%v), want a table", kind, err)
	}
	if got := queryString(t, db, "SELECT count(*) || '/' || count(DISTINCT b) FROM bootstrap_weights"); got != before {
		t.Errorf("bootstrap_weights: %s rows/resamples, was %s", got, before)
	}
	if got := queryString(t, db, "SELECT count(*) FROM paper_claims"); got != claims {
		t.Errorf("paper_claims over the tables: %s rows, was %s", got, claims)
	}
}

func queryString(t *testing.T, db *sql.DB, q string) string {
	t.Helper()
	var s string
	if err := db.QueryRow(q).Scan(&s); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return s
}
