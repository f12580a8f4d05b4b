package subjects

import (
	"errors"
	"testing"

	"github.com/solbehave/solbehave/internal/artifact"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/failure"
	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/schemas"
)

func TestReadsKeptOriginalsAndCompilingSamples(t *testing.T) {
	w := warehouse.New(t.TempDir())
	part := func(ds string) string { return w.Path(ds, warehouse.ByContract("A"), "t") }
	if err := warehouse.Write(part("contracts"), []schemas.Contract{{ContractID: "A", Kept: true}, {ContractID: "B"}}); err != nil {
		t.Fatal(err)
	}
	warehouse.Write(part("reproducibility"), []schemas.ReproducibilityRow{{ContractID: "A", Artifact: "aa"}, {ContractID: "B"}})
	warehouse.Write(part("samples"), []schemas.Sample{
		{ContractID: "A", Model: "reference", Sample: 1, CompiledRepaired: true, Artifact: "r1"},
		{ContractID: "A", Model: "mutant", Sample: 0, CompiledRepaired: true, Artifact: "m0"},
		{ContractID: "A", Model: "mutant", Sample: 0, CompiledRepaired: true, Artifact: "m0"}, // duplicate row
		{ContractID: "A", Model: "mutant", Sample: 1, CompiledRepaired: false},                // did not compile
	})
	o, err := ReadOriginals(w)
	if err != nil || !o.Kept["A"] || o.Kept["B"] || o.Artifacts["A"] != "aa" || o.Artifacts["B"] != "" {
		t.Fatalf("originals: %+v %v", o, err)
	}
	s, err := CompilingSamples(w)
	if err != nil {
		t.Fatal(err)
	}
	got := s["A"]
	if len(got) != 2 || got[0].Model != "mutant" || got[1].Model != "reference" {
		t.Fatalf("want mutant/0 then reference/1, got %+v", got)
	}
	if m := ByModel(got); len(m["mutant"]) != 1 || len(m["reference"]) != 1 {
		t.Fatalf("by model: %+v", m)
	}
}

// An original without an artifact, or whose artifact is missing, fails the
// unit as bad input before anything is deployed.
func TestDeployOriginalNeedsItsArtifact(t *testing.T) {
	store := artifact.New(t.TempDir())
	rec := &deploy.Record{}
	for _, id := range []string{"", "0000000000000000000000000000000000000000000000000000000000000000"} {
		_, err := DeployOriginal(store, rec, id)
		if class, _ := failure.Of(err); class != failure.Input {
			t.Errorf("artifact %q: error %v of class %q, want input", id, err, class)
		}
	}
	if _, err := DeploySamples(store, rec, nil, []schemas.Sample{{Model: "m", Artifact: "missing"}}); err == nil {
		t.Error("a sample whose artifact is missing must fail the unit")
	}
	if _, _, err := DeployAll(store, rec, "", nil); err == nil {
		t.Error("DeployAll deployed samples beside an original without an artifact")
	}
}

// A unit whose record did not load fails as the source's fault, before any
// artifact is read.
func TestDeployUnitFailsAsTheSourceWithoutItsRecord(t *testing.T) {
	_, _, err := DeployUnit(t.TempDir(), nil, errors.New("unparsable source"), "", nil)
	if class, _ := failure.Of(err); class != failure.Source {
		t.Errorf("error %v of class %q, want source", err, class)
	}
}

// A corpus folder that cannot be opened fails the plan, with no subjects.
func TestKeptInNeedsItsCorpus(t *testing.T) {
	kept, err := KeptIn(t.TempDir()+"/absent", &Originals{}, 0, nil)
	if err == nil || kept != nil {
		t.Fatalf("got %d subjects and error %v, want an error", len(kept), err)
	}
}
