package vuln

import (
	engine "github.com/solbehave/solbehave/internal/vuln"
	"strings"
	"testing"

	"github.com/solbehave/solbehave/internal/stagetest"
	"github.com/solbehave/solbehave/internal/views"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

// TestBenchmarkOriginalAndSamples writes what verify and compile would have
// written for one demo contract (a kept original, a reference sample that is
// the original's own output, and a hand-made sample whose release no longer
// pays out) and runs the stage on them with a small budget: the reference
// sample reports what its original reports, so vuln_introduced counts nothing new
// for it; the hand-made sample holds the Ether it takes, a frozen-Ether
// finding its original lacks, which vuln_introduced counts for its model.
func TestBenchmarkOriginalAndSamples(t *testing.T) {
	env := newEnv(t, stagetest.DemoCorpus)
	id := seedWarehouse(t, env, "EtherLocker", map[string]func(string) string{
		"handmade": func(src string) string {
			return strings.Replace(src, "l.beneficiary.transfer(l.amount);", "", 1)
		},
	})
	s := New()
	// The extended profile: its frozen-static extension keeps a time-locked
	// payout the fuzzer did not reach from reading as frozen Ether (SAEFUZZ's
	// oracle, profile saefuzz, asks only that no outward transfer ran).
	s.Profiles = []string{string(engine.ProfileExtended)}
	s.Config.Population, s.Config.Generations = 12, 6
	runs := runVuln(t, env, s, 3)
	if len(runs) != 3 {
		t.Fatalf("%d runs, want the original and two samples", len(runs))
	}
	classes := map[string]string{}
	for _, r := range runs {
		if r.ContractID != id || r.Status != "ok" || r.TestCases == 0 || r.Target != "EtherLocker" {
			t.Errorf("run %+v", r)
		}
		classes[r.Subject+"/"+r.Model] = r.Classes
	}
	if classes["sample/reference"] != classes["original/"] {
		t.Errorf("the reference sample reports %q, its original %q", classes["sample/reference"], classes["original/"])
	}
	if strings.Contains(classes["original/"], "frozen_ether") || !strings.Contains(classes["sample/handmade"], "frozen_ether") {
		t.Errorf("frozen Ether: original %q, hand-made sample %q; want it on the sample only", classes["original/"], classes["sample/handmade"])
	}
	db, err := views.OpenInMemory(env.Warehouse.Root)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, want := range []struct {
		model, class     string
		compiling, fresh int
	}{{"reference", "any", 1, 0}, {"handmade", "frozen_ether", 1, 1}, {"handmade", "reentrancy", 1, 0}} {
		var compiling, fresh int
		q := "SELECT compiling, with_new_finding FROM vuln_introduced WHERE model = ? AND class = ?"
		if err := db.QueryRow(q, want.model, want.class).Scan(&compiling, &fresh); err != nil {
			t.Fatal(err)
		}
		if compiling != want.compiling || fresh != want.fresh {
			t.Errorf("vuln_introduced %s %s: %d compiling, %d with a new finding; want %d and %d", want.model, want.class, compiling, fresh, want.compiling, want.fresh)
		}
	}
}

// seedWarehouse compiles a demo contract, stores its artifact and writes
// kept contracts and reproducibility rows for it, a compiling reference
// sample (the original's own artifact) and one compiling sample per entry
// of edits (the original's source rewritten).
func seedWarehouse(t *testing.T, env *pipeline.Env, name string, edits map[string]func(string) string) string {
	t.Helper()
	rec := stagetest.LoadRecords(t, stagetest.DemoCorpus, 0, name)[0]
	id := rec.Entry.ID
	art, _ := stagetest.Compile(t, env, rec, nil)
	stagetest.Write(t, env, schemas.Contracts, id, "verify", []schemas.Contract{{ContractID: id, Name: name, Kept: true}})
	stagetest.Write(t, env, schemas.Reproducibility, id, "verify", []schemas.ReproducibilityRow{{ContractID: id, Name: name, Kept: true, Artifact: art}})
	samples := []schemas.Sample{stagetest.Sample("reference", 0, art, "")}
	for model, edit := range edits {
		files := map[string]string{}
		for file, src := range rec.Files.Files {
			if files[file] = edit(src); files[file] == src && len(rec.Files.Files) == 1 {
				t.Fatalf("the %s edit changes nothing", model)
			}
		}
		sample, _ := stagetest.Compile(t, env, rec, files)
		s := stagetest.Sample("import:"+model, 0, sample, "")
		s.Model = model
		samples = append(samples, s)
	}
	for i := range samples {
		samples[i].ContractID = id
	}
	stagetest.Write(t, env, schemas.Samples, id, "compile", samples)
	return id
}
