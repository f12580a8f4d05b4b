package pipeline

import (
	"context"
	"testing"
	"time"

	"github.com/solbehave/solbehave/internal/cpuclock"
	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/schemas"
)

// busyStage burns about d of CPU in each unit: it spins for d of wall time
// and, on a machine busy with other work, until the process has burnt d of
// CPU since the unit began, so a loaded machine stretches the unit instead
// of starving it.
type busyStage struct {
	countingStage
	d time.Duration
}

func (s *busyStage) Run(ctx context.Context, env *Env, u Unit) (*Output, error) {
	end, cpu := time.Now().Add(s.d), cpuclock.Process()
	for time.Now().Before(end) || cpuclock.Process()-cpu < s.d {
	}
	return s.countingStage.Run(ctx, env, u)
}

// Every unit's manifest says what it cost, and the units dataset carries it:
// two busy units side by side are each charged a share near their own CPU,
// never the pair's sum.
func TestUnitsRecordTheirCost(t *testing.T) {
	env := testEnv(t, 2)
	s := &busyStage{countingStage: countingStage{n: 2}, d: 200 * time.Millisecond}
	if _, err := (&Runner{Env: env}).Run(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	if err := WriteUnits(env.Data); err != nil {
		t.Fatal(err)
	}
	rows, err := warehouse.ReadDataset(env.Warehouse, schemas.Units)
	if err != nil || len(rows) != 2 {
		t.Fatalf("units: %d rows, %v; want 2", len(rows), err)
	}
	for _, r := range rows {
		if r.WallMS < 200 || r.Jobs != 2 {
			t.Errorf("%s: wall %d ms, jobs %d; want ≥ 200 ms, 2", r.Unit, r.WallMS, r.Jobs)
		}
		// Each burnt 200 ms; on one free core of two the pair's CPU is shared, so a share is at most one unit's wall.
		if r.CPUMS < 50 || r.CPUMS > r.WallMS+50 {
			t.Errorf("%s: cpu %d ms for a 200 ms busy loop (wall %d ms)", r.Unit, r.CPUMS, r.WallMS)
		}
	}
}
