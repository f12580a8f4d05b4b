//go:build ignore

// Rows of a dataset's own row type: compiles (TestDatasetHandlesAreTyped).
package main

import (
	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

func main() {
	out := &pipeline.Output{}
	pipeline.Add(out, schemas.ReplayCalls, []schemas.ReplayCall{{StatusRef: schemas.StatusSuccess}})
	_, _ = warehouse.ReadDataset(warehouse.New("x"), schemas.Samples)
}
