package pipeline

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/solbehave/solbehave/internal/failure"
	"github.com/solbehave/solbehave/internal/walltime"
	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/schemas"
)

// clockStage has one unit that writes a row, then fails on a compiler too
// slow to start.
type clockStage struct{ countingStage }

func (s *clockStage) Run(_ context.Context, _ *Env, u Unit) (*Output, error) {
	out := &Output{}
	Add(out, schemas.Samples, []schemas.Sample{{ContractID: u.Contract, Model: "m"}})
	return out, failure.New(failure.Compile, false, fmt.Errorf("compiling: %w", walltime.Errorf(time.Minute, "solc: loading solc@0.6.10")))
}

// TestWallClockFailureLeavesNoRows: a unit cut by a wall-clock limit is
// recorded as a retriable timeout and leaves its error row only: no row it
// made before the clock ran out.
func TestWallClockFailureLeavesNoRows(t *testing.T) {
	env := testEnv(t, 1)
	r := &Runner{Env: env}
	c, err := r.Run(context.Background(), &clockStage{countingStage{n: 1}})
	if err != nil || c.Failed != 1 {
		t.Fatalf("run: %+v %v", c, err)
	}
	rows, err := warehouse.ReadDataset(env.Warehouse, schemas.Errors)
	if err != nil || len(rows) != 1 || rows[0].Class != failure.Timeout.String() || !rows[0].Retriable {
		t.Fatalf("error rows %+v %v, want one retriable timeout", rows, err)
	}
	if files, _ := env.Warehouse.Files(schemas.Samples.Name()); len(files) != 0 {
		t.Errorf("a unit cut by the clock left rows: %v", files)
	}
}
