package temporal

import (
	"reflect"
	"testing"

	"github.com/spf13/pflag"

	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/stages/generate"
	"github.com/solbehave/solbehave/stages/o1"
)

// TestStageFlagsTravel: every stage flag of `run` (its effective
// configuration) reaches a worker's fresh stages with the same values, and
// the defaults stay defaults. (The workflow and the
// workers themselves are tested end to end in cmd/solbehave TestTemporal.)
func TestStageFlagsTravel(t *testing.T) {
	newStages := func() []pipeline.Stage { return []pipeline.Stage{generate.New(), o1.New()} }
	run := pflag.NewFlagSet("run", pflag.ContinueOnError)
	run.Int("jobs", 2, "not a stage flag")
	for _, s := range newStages() {
		s.BindFlags(run)
	}
	if err := run.Parse([]string{"--samples", "2", "--o1-calls=200", "--generator", "mutant,reference", "--jobs", "1"}); err != nil {
		t.Fatal(err)
	}
	carried := StageFlags(run, newStages())
	want := map[string][]string{"samples": {"2"}, "o1-calls": {"200"}, "generator": {"mutant,reference"}, "o1-seq-len": {run.Lookup("o1-seq-len").DefValue}}
	for k, v := range want {
		if !reflect.DeepEqual(carried[k], v) {
			t.Errorf("carried --%s %v, want %v", k, carried[k], v)
		}
	}
	if _, ok := carried["jobs"]; ok {
		t.Error("--jobs is no stage flag, yet it travels")
	}
	w := &Worker{NewStages: newStages}
	rt, err := w.newRuntime(Config{Flags: carried, Data: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	g, f := rt.stages["generate"].(*generate.Stage), rt.stages["o1"].(*o1.Stage)
	if g.Samples != 2 || f.Calls != 200 || !reflect.DeepEqual(g.Generators, []string{"mutant", "reference"}) {
		t.Fatalf("worker's stages: samples=%d o1-calls=%d generators=%v", g.Samples, f.Calls, g.Generators)
	}
	if def := o1.New(); f.SeqLen != def.SeqLen || f.Timeout != def.Timeout {
		t.Fatalf("unset flags changed: seq-len %d timeout %s", f.SeqLen, f.Timeout)
	}
	if _, err := w.newRuntime(Config{Flags: map[string][]string{"no-such-flag": {"1"}}}); err == nil {
		t.Fatal("a flag no stage defines must be refused")
	}
}

func TestParseFaults(t *testing.T) {
	got, err := ParseFaults("o2:Vault:retriable, verify:GiftToken:fatal")
	want := []Fault{{"o2", "Vault", true}, {"verify", "GiftToken", false}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, %v", got, err)
	}
	if _, err := ParseFaults("o2:Vault:sometimes"); err == nil {
		t.Fatal("an unknown kind must be refused")
	}
}

func TestGenerateQueue(t *testing.T) {
	c := Config{GenerateQueue: "gpu"}.withDefaults()
	if c.queue("generate") != "gpu" || c.queue("o2") != DefaultTaskQueue {
		t.Fatalf("queues: generate %q, o2 %q", c.queue("generate"), c.queue("o2"))
	}
}
