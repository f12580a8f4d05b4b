// Package stagelist is the pipeline's stages in order: the one list that
// the CLI runs and the bench's cost run times.
package stagelist

import (
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/stages/compile"
	"github.com/solbehave/solbehave/stages/crawl"
	"github.com/solbehave/solbehave/stages/dcr"
	"github.com/solbehave/solbehave/stages/generate"
	"github.com/solbehave/solbehave/stages/o1"
	"github.com/solbehave/solbehave/stages/o2"
	"github.com/solbehave/solbehave/stages/o3"
	"github.com/solbehave/solbehave/stages/report"
	"github.com/solbehave/solbehave/stages/sequences"
	"github.com/solbehave/solbehave/stages/skeleton"
	"github.com/solbehave/solbehave/stages/verify"
	"github.com/solbehave/solbehave/stages/vuln"
)

// Order is the full order of the pipeline; All lists the stages that
// exist, in that order.
var Order = []string{"crawl", "verify", "skeleton", "generate", "compile", "o2", "dcr", "sequences", "o3", "o1", "vuln", "report"}

// All returns a new instance of every stage, in pipeline order.
func All() []pipeline.Stage {
	return []pipeline.Stage{
		crawl.New(),
		verify.New(),
		skeleton.New(),
		generate.New(),
		compile.New(),
		o2.New(),
		dcr.New(),
		sequences.New(),
		o3.New(),
		o1.New(),
		vuln.New(),
		report.New(),
	}
}
