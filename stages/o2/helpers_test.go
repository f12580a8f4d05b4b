package o2

import (
	"os"
	"testing"

	"github.com/solbehave/solbehave/pipeline"
)

// engines is shared by every test of the package: one set of compiler workers.
var engines = &pipeline.Engines{}

func TestMain(m *testing.M) {
	code := m.Run()
	engines.Close()
	os.Exit(code)
}

const demoCorpus = "../../data/corpus/demo"
