package vuln

import (
	"strings"
	"testing"
	"time"

	"github.com/solbehave/solbehave/internal/failure"
	"github.com/solbehave/solbehave/internal/stagetest"
	"github.com/solbehave/solbehave/schemas"
)

// TestSlowCompilerStartIsNoVerdict: on a machine too loaded to start a
// compiler in time, every unit (the cross-validation settings' too) fails as
// a retriable timeout and writes no row of the files' runs; the named compiler's
// slow start does not send the file to a substitute compiler.
func TestSlowCompilerStartIsNoVerdict(t *testing.T) {
	env := newEnv(t, writeCorpus(t))
	env.Engines.SolcOptions.StartupTimeout = time.Nanosecond
	s := New()
	s.CV = true
	c := stagetest.Run(t, env, s)
	const labelUnits = 2 // a file's labels need no compiler
	if c.Units <= labelUnits || c.Failed != c.Units-labelUnits {
		t.Fatalf("counters %+v: want every unit but the labels failed", c)
	}
	for _, ds := range []string{"vuln_runs", "vuln_cv", "vuln_findings"} {
		if files, _ := env.Warehouse.Files(ds); len(files) != 0 {
			t.Errorf("%s: %d part(s) written by units the clock cut", ds, len(files))
		}
	}
	for _, e := range stagetest.Rows(t, env, schemas.Errors) {
		if e.Class != failure.Timeout.String() || !e.Retriable {
			t.Errorf("%s: class %s retriable %v, want a retriable timeout: %s", e.Unit, e.Class, e.Retriable, e.Message)
		}
		if e.ContractID == "reentrancy__bank" && strings.Contains(e.Message, "0.4.26") {
			t.Errorf("%s: a slow start of the named 0.4.24 sent the file to a substitute: %s", e.Unit, e.Message)
		}
	}
}
