package callseq

import (
	"context"
	"os"
	"sync"
	"testing"

	"github.com/solbehave/solbehave/internal/dcrextract"
	"github.com/solbehave/solbehave/internal/dcrgraph"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/solc"
	"github.com/solbehave/solbehave/internal/stagetest"
)

const demoCorpus = "../../data/corpus/demo"

var (
	managerOnce sync.Once
	manager     *solc.Manager
	compiled    sync.Map // contract id -> *demo
)

func TestMain(m *testing.M) {
	code := m.Run()
	if manager != nil {
		manager.Close()
	}
	os.Exit(code)
}

// demo is a compiled demo contract with its static graph.
type demo struct {
	rec   *deploy.Record
	out   *solc.Output
	graph *dcrgraph.Graph
}

// loadDemo compiles the demo contract whose name is given (once per test
// binary) and extracts its graph with the static extractor.
func loadDemo(t testing.TB, name string) *demo {
	t.Helper()
	if v, ok := compiled.Load(name); ok {
		return v.(*demo)
	}
	rec := stagetest.LoadRecords(t, demoCorpus, 1000, name)[0]
	managerOnce.Do(func() { manager = solc.NewManager(solc.Options{}) })
	out, err := manager.Compile(context.Background(), rec.CompileInput(nil))
	if err != nil {
		t.Fatal(err)
	}
	res, err := dcrextract.Static(dcrextract.FromRecord(rec, out))
	if err != nil {
		t.Fatal(err)
	}
	d := &demo{rec: rec, out: out, graph: res.Graph}
	compiled.Store(name, d)
	return d
}

// contract prepares a demo contract for Generate.
func (d *demo) contract(t testing.TB) Contract {
	t.Helper()
	c, err := FromRecord(d.rec, d.out, d.graph)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func generate(t testing.TB, c Contract, cfg Config) *Result {
	t.Helper()
	res, err := Generate(context.Background(), c, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func smallConfig(budget int) Config {
	cfg := DefaultConfig()
	cfg.Budget = budget
	return cfg
}

func profileConfig(t testing.TB, profile string, budget int) Config {
	t.Helper()
	cfg, err := ProfileConfig(profile)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Budget = budget
	return cfg
}
