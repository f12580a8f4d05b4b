package pipeline

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/solbehave/solbehave/internal/walltime"
	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/schemas"
)

// clockStage has one unit that writes a row and then fails as its wrapped
// err says.
type clockStage struct{ countingStage }

func (s *clockStage) Run(_ context.Context, _ *Env, u Unit) (*Output, error) {
	out := &Output{}
	Add(out, "samples", []schemas.Sample{{ContractID: u.Contract, Model: "m"}})
	return out, Fail("compile", false, fmt.Errorf("compiling: %w", walltime.Errorf(time.Minute, "solc: loading solc@0.6.10")))
}

// TestWallClockFailureIsATimeout: a wall-clock limit anywhere in a unit's
// error makes it a retriable timeout, whatever class the stage gave it, and
// the unit leaves its error row only: no row it made before the clock ran
// out.
func TestWallClockFailureIsATimeout(t *testing.T) {
	err := Fail("compile", false, fmt.Errorf("x: %w", walltime.Errorf(time.Minute, "solc: loading")))
	if class, retriable := Classify(err); class != ClassTimeout || !retriable {
		t.Errorf("class %s retriable %v, want timeout, retriable", class, retriable)
	}
	if class, _ := Classify(Fail("compile", false, errors.New("syntax"))); class != "compile" {
		t.Errorf("a compile error is classed %s", class)
	}
	env := testEnv(t, 1)
	r := &Runner{Env: env}
	c, err := r.Run(context.Background(), &clockStage{countingStage{n: 1}})
	if err != nil || c.Failed != 1 {
		t.Fatalf("run: %+v %v", c, err)
	}
	rows, err := warehouse.ReadDataset[schemas.ErrorRow](env.Warehouse, "errors")
	if err != nil || len(rows) != 1 || rows[0].Class != ClassTimeout || !rows[0].Retriable {
		t.Fatalf("error rows %+v %v, want one retriable timeout", rows, err)
	}
	if files, _ := env.Warehouse.Files("samples"); len(files) != 0 {
		t.Errorf("a unit cut by the clock left rows: %v", files)
	}
}
