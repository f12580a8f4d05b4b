package vuln

import (
	"testing"

	"github.com/solbehave/solbehave/internal/regen/regentest"
	"github.com/solbehave/solbehave/internal/stagetest"
)

// TestBenchmarkMultiFile: the stage analyses a multi-file original and its
// samples regenerated across files (the reference, and the mutant whose
// one mutation is in a base's file) as the other oracles deploy them; the
// reference reports what its original reports.
func TestBenchmarkMultiFile(t *testing.T) {
	env, rec := stagetest.MultiFileEnv(t, 0)
	env.Seed = 7
	regentest.MultiFileSamples(t, env, rec)
	s := New()
	s.Config.Population, s.Config.Generations = 8, 3
	classes := map[string]string{}
	for _, r := range runVuln(t, env, s, 3) {
		if r.Status != "ok" || r.Target != stagetest.MultiFileTarget || r.TestCases == 0 {
			t.Errorf("run %+v", r)
		}
		classes[r.Subject+"/"+r.Model] = r.Classes
	}
	if len(classes) != 3 || classes["sample/reference"] != classes["original/"] {
		t.Errorf("classes %v", classes)
	}
}
