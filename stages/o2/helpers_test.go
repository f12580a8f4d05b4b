package o2

import (
	"testing"

	"github.com/solbehave/solbehave/internal/stagetest"
	"github.com/solbehave/solbehave/pipeline"
)

// engines is shared by every test of the package: one set of compiler workers.
var engines = &pipeline.Engines{}

func TestMain(m *testing.M) { stagetest.Main(m, engines) }

const demoCorpus = "../../data/corpus/demo"
