package dcrextract

import (
	"testing"

	"github.com/solbehave/solbehave/internal/dcrgraph"
)

// TestStaticDemoCorpus extracts every demo contract: each graph validates,
// every guard compiles, the engine accepts it, every event's proposed call
// names a function of the contract, and every relation carries a rule.
func TestStaticDemoCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the eight demo contracts")
	}
	for _, n := range demoNames {
		d := loadDemo(t, n)
		res, err := Static(FromRecord(d.rec, d.out))
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		eng, err := dcrgraph.NewEngine(res.Graph)
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		if errs := eng.CompileErrors(); len(errs) > 0 {
			t.Errorf("%s: guards that do not compile: %v", n, errs)
		}
		if len(res.Relations) != len(res.Graph.Relations) {
			t.Fatalf("%s: %d relation infos for %d relations", n, len(res.Relations), len(res.Graph.Relations))
		}
		for i, r := range res.Relations {
			if r.Rule == "" {
				t.Errorf("%s: relation %d has no rule", n, i)
			}
		}
		for _, e := range res.Graph.Events {
			info, ok := res.Events[e.ID]
			if !ok || len(info.ArgSources) != len(e.Args) {
				t.Errorf("%s: event %s: provenance %+v for %d arguments", n, e.ID, info, len(e.Args))
			}
		}
		if len(res.Graph.Relations) == 0 {
			t.Errorf("%s: no relation at all", n)
		}
	}
}
