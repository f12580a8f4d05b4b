//go:build ignore

// Rows of another dataset's type, and a plain string as a call status:
// must not compile (TestDatasetHandlesAreTyped).
package main

import (
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

func main() {
	out := &pipeline.Output{}
	pipeline.Add(out, schemas.ReplayCalls, []schemas.Sample{{}})
	oracle := schemas.OracleO2
	_ = schemas.ReplayCall{StatusRef: oracle}
}
