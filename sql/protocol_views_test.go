package sqlviews_test

import (
	"database/sql"
	"fmt"
	"testing"

	"github.com/solbehave/solbehave/internal/stagetest"
	"github.com/solbehave/solbehave/internal/views"
	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/schemas"
)

// fixture is a warehouse written row by row (each write its own part in the
// contract's partition), opened in DuckDB with every view over it.
type fixture struct {
	t *testing.T
	w *warehouse.Warehouse
	n int
}

func newFixture(t *testing.T) *fixture {
	return &fixture{t: t, w: warehouse.New(t.TempDir())}
}

func put[T any](f *fixture, dataset, contract string, rows ...T) {
	f.t.Helper()
	f.n++
	part := fmt.Sprintf("t%d", f.n)
	if err := warehouse.Write(f.w.Path(dataset, warehouse.ByContract(contract), part), rows); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) open() *sql.DB {
	f.t.Helper()
	db, err := views.OpenInMemory(f.w.Root)
	if err != nil {
		f.t.Fatal(err)
	}
	f.t.Cleanup(func() { db.Close() })
	return db
}

// call is one O2 replay_calls row of model m's sample 0 on contract c.
func call(c, m string, step int64, match, gasLimited bool) schemas.ReplayCall {
	return schemas.ReplayCall{ContractID: c, Model: m, Oracle: schemas.OracleO2, Step: step,
		StatusRef: schemas.StatusSuccess, StatusSample: map[bool]string{true: schemas.StatusSuccess, false: schemas.StatusRevert}[match],
		StatusMatch: match, GasLimited: gasLimited}
}

// fig4_replay counts the divergent contracts whose every divergence is
// gas-limited, apart from the divergent ones, under the `_rate` names.
func TestFig4ReplayCountsGasOnlyDivergences(t *testing.T) {
	f := newFixture(t)
	put(f, "replay_calls", "A", call("A", "m", 0, true, false), call("A", "m", 1, false, true))  // gas only
	put(f, "replay_calls", "B", call("B", "m", 0, false, true), call("B", "m", 1, false, false)) // gas and logic
	put(f, "replay_calls", "C", call("C", "m", 0, true, false), call("C", "m", 1, true, false))  // agrees
	db := f.open()
	got := stagetest.QueryMaps(t, db, `SELECT n, divergent, divergent_gas_only, status_match_rate, status_match_min_rate FROM fig4_replay WHERE oracle = 'O2' AND model = 'm'`)
	want := `[{"divergent":2,"divergent_gas_only":1,"n":3,"status_match_min_rate":0.5,"status_match_rate":0.5}]`
	if stagetest.JSON(got) != want {
		t.Fatalf("fig4_replay %s\nwant %s", stagetest.JSON(got), want)
	}
}
