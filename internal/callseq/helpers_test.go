package callseq

import (
	"context"
	"sync"
	"testing"

	"github.com/solbehave/solbehave/internal/dcrextract"
	"github.com/solbehave/solbehave/internal/dcrgraph"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/deploy/deploytest"
	"github.com/solbehave/solbehave/internal/solc"
)

const demoCorpus = "../../data/corpus/demo"

var compiled sync.Map // contract id -> *demo

func TestMain(m *testing.M) { deploytest.Main(m) }

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
	rec, out := deploytest.LoadCompiled(t, demoCorpus, 1000, name)
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
