package sqlviews_test

import (
	"fmt"

	"github.com/solbehave/solbehave/internal/warehouse"
	"testing"

	"github.com/solbehave/solbehave/internal/stagetest"
	"github.com/solbehave/solbehave/schemas"
)

// The original's O2 unit is every model's: contract_costs adds it to each
// model's own unit; stage_costs sums per stage and model.
func TestCostViews(t *testing.T) {
	f := newFixture(t)
	unit := func(stage, id, c, m string, wall, cpu int64) schemas.UnitRow {
		return schemas.UnitRow{Stage: stage, Unit: id, ContractID: c, Model: m, WallMS: wall, CPUMS: cpu, Jobs: 1}
	}
	putUnpartitioned(f, "units",
		unit("o2", "A", "A", "", 1000, 800),
		unit("o2", "A/m1", "A", "m1", 2000, 1500),
		unit("o2", "A/m2", "A", "m2", 4000, 3500),
		unit("verify", "A", "A", "", 500, 400),
		unit("verify", "B", "B", "", 700, 600),
	)
	db := f.open("contract_costs", "stage_costs")
	got := stagetest.QueryMaps(t, db, `SELECT stage, contract_id, model, units, wall_s, cpu_s FROM contract_costs`)
	want := `[{"contract_id":"A","cpu_s":2.3,"model":"m1","stage":"o2","units":2,"wall_s":3},` +
		`{"contract_id":"A","cpu_s":4.3,"model":"m2","stage":"o2","units":2,"wall_s":5},` +
		`{"contract_id":"A","cpu_s":0.4,"model":"","stage":"verify","units":1,"wall_s":0.5},` +
		`{"contract_id":"B","cpu_s":0.6,"model":"","stage":"verify","units":1,"wall_s":0.7}]`
	if stagetest.JSON(got) != want {
		t.Fatalf("contract_costs %s\nwant %s", stagetest.JSON(got), want)
	}
	got = stagetest.QueryMaps(t, db, `SELECT stage, model, units, contracts, cpu_s, cpu_s_per_unit FROM stage_costs WHERE stage = 'verify' OR model = 'm2'`)
	want = `[{"contracts":1,"cpu_s":3.5,"cpu_s_per_unit":3.5,"model":"m2","stage":"o2","units":1},` +
		`{"contracts":2,"cpu_s":1,"cpu_s_per_unit":0.5,"model":"","stage":"verify","units":2}]`
	if stagetest.JSON(got) != want {
		t.Fatalf("stage_costs %s\nwant %s", stagetest.JSON(got), want)
	}
}

// putUnpartitioned writes rows as one part of a dataset with no partitions.
func putUnpartitioned[T any](f *fixture, dataset string, rows ...T) {
	f.t.Helper()
	f.n++
	if err := warehouse.Write(f.w.Path(dataset, nil, fmt.Sprintf("t%d", f.n)), rows); err != nil {
		f.t.Fatal(err)
	}
}

// §V-D e's seconds per contract are over the LLM models: the reference
// control's replay of the same contract stays out of the mean (with it, 6 s).
func TestPaperClaimsSecondsLeaveTheControlsOut(t *testing.T) {
	f := newFixture(t)
	put(f, "samples", "A", schemas.Sample{ContractID: "A", Model: "m", Generator: "openai"},
		schemas.Sample{ContractID: "A", Model: "reference", Generator: "reference"})
	putUnpartitioned(f, "units",
		schemas.UnitRow{Stage: "o2", Unit: "A", ContractID: "A", WallMS: 1000, Jobs: 1},
		schemas.UnitRow{Stage: "o2", Unit: "A/m", ContractID: "A", Model: "m", WallMS: 2000, Jobs: 1},
		schemas.UnitRow{Stage: "o2", Unit: "A/reference", ContractID: "A", Model: "reference", WallMS: 8000, Jobs: 1})
	got := stagetest.QueryMaps(t, f.open("paper_claims"), `SELECT run_value, n FROM paper_claims WHERE id = 'solbehave_o2_seconds_per_contract'`)
	if want := `[{"n":1,"run_value":3}]`; stagetest.JSON(got) != want {
		t.Fatalf("paper_claims o2 seconds %s\nwant %s", stagetest.JSON(got), want)
	}
}
