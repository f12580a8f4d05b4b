package vuln

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/solbehave/solbehave/internal/stagetest"
	"github.com/solbehave/solbehave/internal/views"
	engine "github.com/solbehave/solbehave/internal/vuln"
	"github.com/solbehave/solbehave/schemas"
)

// The split is stratified and fixed: every category of at least three files
// reaches every fold, the folds differ in size by one at most, and the same
// seed gives the same split.
func TestAssignFoldsStratified(t *testing.T) {
	var files []*smartbugsFile
	sizes := map[string]int{"reentrancy": 7, "arithmetic": 5, "other": 1, "time_manipulation": 3}
	for cat, n := range sizes {
		for i := range n {
			path := fmt.Sprintf("dataset/%s/f%d.sol", cat, i)
			files = append(files, &smartbugsFile{id: contractID(path), entry: sbEntry{Path: path}})
		}
	}
	folds := assignFolds(files, CVFolds, cvFoldSeed)
	perFold := make([]int, CVFolds)
	perCat := map[string]map[int]int{}
	for _, f := range files {
		k, ok := folds[f.id]
		if !ok || k < 0 || k >= CVFolds {
			t.Fatalf("%s: fold %d, %v", f.id, k, ok)
		}
		perFold[k]++
		if perCat[f.category()] == nil {
			perCat[f.category()] = map[int]int{}
		}
		perCat[f.category()][k]++
	}
	for k := 1; k < CVFolds; k++ {
		if d := perFold[k] - perFold[0]; d > 1 || d < -1 {
			t.Errorf("fold sizes %v differ by more than one", perFold)
		}
	}
	for cat, n := range sizes {
		for k := range CVFolds {
			if got, want := perCat[cat][k], n/CVFolds; got < want || got > want+1 {
				t.Errorf("%s: fold %d holds %d of %d files", cat, k, got, n)
			}
		}
	}
	again := assignFolds(files, CVFolds, cvFoldSeed)
	other := assignFolds(files, CVFolds, cvFoldSeed+1)
	moved := 0
	for id, k := range folds {
		if again[id] != k {
			t.Fatalf("%s moved between two splits with the same seed", id)
		}
		if other[id] != k {
			moved++
		}
	}
	if moved == 0 {
		t.Error("another seed gave the same split")
	}
}

// vuln_eval_cv chooses each fold's setting on the other two folds only and
// scores it on the fold. Each fold holds two files labelled reentrancy (L)
// and one labelled with no class (U). Setting a finds every L but also U in
// folds 1 and 2; setting b finds one L per fold and never U. Held out fold
// 0, a's training precision is 4/6 < 0.8, so b is chosen; held out 1 or 2,
// a's is 4/5 = 0.8 with recall 1, so a is. Tested: fold 0 under b (1 TP, 1
// FN), folds 1 and 2 under a (2 TP, 1 FP each): 5 TP, 2 FP, 1 FN. A
// frozen-Ether finding (not judged) counts nowhere.
func TestEvalCVChoosesOnOtherFolds(t *testing.T) {
	env := newEnv(t, t.TempDir())
	for fold := range 3 {
		for _, setting := range []string{"a", "b"} {
			for i, labelled := range []bool{true, true, false} {
				id := fmt.Sprintf("f%d_%d", fold, i)
				detected := labelled && (setting == "a" || i == 0) || !labelled && setting == "a" && fold > 0
				rows := []schemas.VulnCVRow{
					{ContractID: id, Fold: int64(fold), Setting: setting, Class: "reentrancy", Labelled: labelled, Judged: true, Detected: detected, Status: "ok"},
					{ContractID: id, Fold: int64(fold), Setting: setting, Class: "frozen_ether", Judged: false, Detected: true, Status: "ok"},
				}
				stagetest.Write(t, env, schemas.VulnCV, id, "cv-"+setting, rows)
			}
		}
	}
	db, err := views.OpenInMemory(env.Warehouse.Root)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var settings string
	var labelled, tp, fp, fn int
	var p, plo, phi, r, rlo, rhi float64
	q := `SELECT settings, labelled, tp, fp, fn, precision, precision_lo, precision_hi, recall, recall_lo, recall_hi
		FROM vuln_eval_cv WHERE class = 'any'`
	if err := db.QueryRow(q).Scan(&settings, &labelled, &tp, &fp, &fn, &p, &plo, &phi, &r, &rlo, &rhi); err != nil {
		t.Fatal(err)
	}
	if settings != "fold 0: b; fold 1: a; fold 2: a" {
		t.Errorf("settings %q", settings)
	}
	if labelled != 6 || tp != 5 || fp != 2 || fn != 1 {
		t.Errorf("labelled %d, tp %d, fp %d, fn %d; want 6, 5, 2, 1", labelled, tp, fp, fn)
	}
	check := func(name string, got, want float64) {
		if math.Abs(got-want) > 1e-9 {
			t.Errorf("%s = %.6f, want %.6f", name, got, want)
		}
	}
	check("precision", p, 5.0/7)
	check("recall", r, 5.0/6)
	lo, hi := wilson(5, 7)
	check("precision_lo", plo, lo)
	check("precision_hi", phi, hi)
	lo, hi = wilson(5, 6)
	check("recall_lo", rlo, lo)
	check("recall_hi", rhi, hi)
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM vuln_eval_cv WHERE class = 'frozen_ether'`).Scan(&n); err != nil || n != 0 {
		t.Errorf("frozen_ether rows: %d (%v), want none", n, err)
	}
}

// wilson is the 95% Wilson score interval of x successes in n trials.
func wilson(x, n int) (float64, float64) {
	const z = 1.959963984540054
	p, nf := float64(x)/float64(n), float64(n)
	c := (p + z*z/(2*nf)) / (1 + z*z/nf)
	h := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / (1 + z*z/nf)
	return c - h, c + h
}

// A saefuzz row's params list only SAEFUZZ's own parameters: the seed
// strategies' shares are extensions its run ignores (issue 37).
func TestCVParamsByProfile(t *testing.T) {
	c := engine.DefaultConfig()
	for _, p := range CVSettings {
		sae, ext := p.params(c, engine.ProfileSAEFUZZ), p.params(c, engine.ProfileExtended)
		for _, k := range []string{"cross_reentry", "gap_hints", "campaigns"} {
			if strings.Contains(sae, k) {
				t.Errorf("setting %s: saefuzz params %s list the extension share %s", p.Name, sae, k)
			}
			if !strings.Contains(ext, k) {
				t.Errorf("setting %s: extended params %s lack %s", p.Name, ext, k)
			}
		}
		if !strings.Contains(sae, "population") || !strings.Contains(sae, "gas_threshold") {
			t.Errorf("setting %s: saefuzz params %s lack its own parameters", p.Name, sae)
		}
	}
}
