package vuln

import (
	"context"
	"testing"

	"github.com/solbehave/solbehave/internal/artifact"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/etherscan"
	"github.com/solbehave/solbehave/internal/views"
	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

const demoCorpus = "../../data/corpus/demo"

// TestBenchmarkOriginalAndReferenceSample writes what verify and compile
// would have written for one demo contract (a kept original and a sample
// that is the original's own output) and runs the stage on them: the two
// runs must report the same classes, so vuln_rate counts nothing new.
func TestBenchmarkOriginalAndReferenceSample(t *testing.T) {
	env := newEnv(t, demoCorpus)
	id := seedWarehouse(t, env, "EtherLocker")
	s := New()
	s.Config.Population, s.Config.Generations = 12, 6
	c, err := (&pipeline.Runner{Env: env}).Run(context.Background(), s)
	if err != nil || c.Units != 2 || c.Failed != 0 {
		t.Fatalf("counters %+v, err %v", c, err)
	}
	runs := read[schemas.VulnRun](t, env, "vuln_runs")
	if len(runs) != 2 {
		t.Fatalf("%d runs, want the original and the sample", len(runs))
	}
	classes := map[string]string{}
	for _, r := range runs {
		if r.ContractID != id || r.Status != "ok" || r.TestCases == 0 {
			t.Errorf("run %+v", r)
		}
		classes[r.Subject] = r.Classes
	}
	if classes["original"] != classes["sample"] {
		t.Errorf("the reference sample reports %q, its original %q", classes["sample"], classes["original"])
	}
	db, err := views.OpenInMemory(env.Warehouse.Root)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var compiling, fresh int
	if err := db.QueryRow("SELECT compiling, with_new_finding FROM vuln_rate WHERE model = 'reference' AND class = 'any'").Scan(&compiling, &fresh); err != nil {
		t.Fatal(err)
	}
	if compiling != 1 || fresh != 0 {
		t.Errorf("vuln_rate: %d compiling, %d with a new finding; want 1 and 0", compiling, fresh)
	}
}

// seedWarehouse compiles a demo contract, stores its artifact and writes a
// kept reproducibility row and a compiling reference sample for it.
func seedWarehouse(t *testing.T, env *pipeline.Env, name string) string {
	t.Helper()
	client, err := etherscan.NewRecorded(demoCorpus)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := etherscan.ListCorpus(demoCorpus)
	if err != nil {
		t.Fatal(err)
	}
	var entry etherscan.Entry
	for _, e := range entries {
		if e.Name == name {
			entry = e
		}
	}
	rec, err := deploy.Load(client, entry, 0)
	if err != nil {
		t.Fatal(err)
	}
	out, err := env.Engines.Solc().Compile(context.Background(), rec.CompileInput(nil))
	if err != nil {
		t.Fatal(err)
	}
	art, err := artifact.New(env.Data).Put(out)
	if err != nil {
		t.Fatal(err)
	}
	parts := warehouse.ByContract(entry.ID)
	repro := []schemas.Reproducibility{{ContractID: entry.ID, Name: name, Kept: true, Artifact: art}}
	if err := warehouse.Write(env.Warehouse.Path("reproducibility", parts, "verify"), repro); err != nil {
		t.Fatal(err)
	}
	sample := []schemas.Sample{{ContractID: entry.ID, Model: "reference", Generator: "reference", CompiledRaw: true, CompiledRepaired: true, Artifact: art}}
	if err := warehouse.Write(env.Warehouse.Path("samples", parts, "compile-reference"), sample); err != nil {
		t.Fatal(err)
	}
	return entry.ID
}
