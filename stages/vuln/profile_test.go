package vuln

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/solbehave/solbehave/internal/stagetest"
	engine "github.com/solbehave/solbehave/internal/vuln"
	"github.com/solbehave/solbehave/schemas"
)

// unseenCorpus is the labelled set written for issue 37 (never tuned on).
const unseenCorpus = "../../internal/vuln/testdata/unseen"

// TestUnseenLabelsLoad: the unseen set reads as a SmartBugs-layout corpus,
// every entry's labelled lines hold the code its category names, and the
// labels map to the classes it was written for.
func TestUnseenLabelsLoad(t *testing.T) {
	if !isSmartBugs(unseenCorpus) {
		t.Fatal("the unseen set is not in SmartBugs' layout")
	}
	files, err := readSmartBugs(unseenCorpus)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 30 {
		t.Fatalf("%d files, want at least 30", len(files))
	}
	labelled := map[string]int{}
	clean := 0
	for _, f := range files {
		any := false
		for _, r := range f.labelRows() {
			if r.Labelled {
				labelled[r.Class]++
				any = true
			}
		}
		if f.category() == "clean" {
			clean++
			if any || len(f.entry.Vulnerabilities) > 0 {
				t.Errorf("%s: a fixed twin carries a label", f.id)
			}
		}
		for _, v := range f.entry.Vulnerabilities {
			if _, ok := mapCategory(v.Category, v.Lines, nil); v.Category != "locked_ether" && !ok && v.Category != "access_control" {
				t.Errorf("%s: category %s maps to no class", f.id, v.Category)
			}
		}
	}
	want := map[string]int{"reentrancy": 7, "block_state": 7, "arithmetic": 7, "delegatecall": 4}
	for class, n := range want {
		if labelled[class] != n {
			t.Errorf("%s: %d labelled files, want %d", class, labelled[class], n)
		}
	}
	if clean < 10 {
		t.Errorf("%d fixed twins, want at least 10", clean)
	}
}

// TestProfilePlan: saefuzz is the default; each profile is its own unit with
// its own fingerprint, so switching the profile re-runs the vuln units.
func TestProfilePlan(t *testing.T) {
	env := newEnv(t, writeCorpus(t))
	s := New()
	if len(s.Profiles) != 1 || s.Profiles[0] != string(engine.ProfileSAEFUZZ) {
		t.Fatalf("default profiles %v, want [saefuzz]", s.Profiles)
	}
	one, err := s.Plan(context.Background(), env)
	if err != nil {
		t.Fatal(err)
	}
	s.Profiles = []string{"saefuzz", "extended"}
	both, err := s.Plan(context.Background(), env)
	if err != nil {
		t.Fatal(err)
	}
	fps := map[string]string{}
	for _, u := range one {
		fps[u.ID] = u.Fingerprint
	}
	ext := 0
	for _, u := range both {
		if fp, ok := fps[u.ID]; ok && fp != u.Fingerprint {
			t.Errorf("%s: the saefuzz unit's fingerprint moved when extended was added", u.ID)
		}
		if u.Payload.(unit).profile == engine.ProfileExtended {
			ext++
			if _, ok := fps[u.ID]; ok {
				t.Errorf("%s: an extended unit shares a saefuzz unit's id", u.ID)
			}
		}
	}
	if ext != 2 || len(both) != len(one)+2 {
		t.Fatalf("%d extended units of %d (saefuzz alone %d), want 2 more", ext, len(both), len(one))
	}
	// A per-rule ablation profile (saefuzz+<extension>) is its own unit too,
	// named canonically, apart from saefuzz and extended.
	s.Profiles = []string{"saefuzz", "saefuzz+repair+tx-edits"}
	abl, err := s.Plan(context.Background(), env)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, u := range abl {
		if u.Payload.(unit).profile != "saefuzz+tx-edits+repair" {
			continue
		}
		n++
		if _, ok := fps[u.ID]; ok || !strings.HasSuffix(u.ID, "/saefuzz+tx-edits+repair") {
			t.Errorf("%s: a saefuzz+tx-edits+repair unit's id is not its own", u.ID)
		}
	}
	if n != 2 {
		t.Errorf("%d saefuzz+tx-edits+repair units, want 2", n)
	}
	s.Profiles = []string{"paper"}
	if _, err := s.Plan(context.Background(), env); err == nil {
		t.Error("an unknown profile planned")
	}
	s.Profiles = []string{"saefuzz+nope"}
	if _, err := s.Plan(context.Background(), env); err == nil {
		t.Error("a profile naming an unknown extension planned")
	}
}

// TestProfilesSideBySide runs both profiles (real solc, real EVM, a small
// budget) on two files of the unseen set: the bank that re-enters through
// call.value and its fixed twin. Both profiles find the reentrancy and
// spare the twin, each run and finding carries its profile, and
// vuln_eval shows both profiles' rows.
func TestProfilesSideBySide(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"dataset/reentrancy/EtherBank.sol", "dataset/clean/EtherBankFixed.sol"} {
		src, err := os.ReadFile(filepath.Join(unseenCorpus, p))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	index := `[{"name":"EtherBank.sol","path":"dataset/reentrancy/EtherBank.sol","pragma":"0.4.24","compiled_version":"0.4.24","vulnerabilities":[{"lines":[14],"category":"reentrancy"}]},
{"name":"EtherBankFixed.sol","path":"dataset/clean/EtherBankFixed.sol","pragma":"0.4.24","compiled_version":"0.4.24","vulnerabilities":[]}]`
	if err := os.WriteFile(filepath.Join(dir, "vulnerabilities.json"), []byte(index), 0o644); err != nil {
		t.Fatal(err)
	}
	env := newEnv(t, dir)
	s := New()
	s.Profiles = []string{"saefuzz", "extended"}
	s.Config.Population, s.Config.Generations = 8, 4
	runs := runVuln(t, env, s, 6) // 2 label units + 2 files × 2 profiles
	byProfile := map[string]int{}
	for _, r := range runs {
		byProfile[r.Profile]++
		if r.Status != "ok" {
			t.Errorf("%s %s: %s %s", r.ContractID, r.Profile, r.Status, r.Error)
		}
	}
	if byProfile["saefuzz"] != 2 || byProfile["extended"] != 2 {
		t.Fatalf("runs by profile %v", byProfile)
	}
	found := map[string]bool{}
	for _, f := range stagetest.Rows(t, env, schemas.VulnFindings) {
		found[f.Profile+" "+f.ContractID+" "+f.Class] = true
	}
	for _, p := range []string{"saefuzz", "extended"} {
		if !found[p+" reentrancy__EtherBank reentrancy"] {
			t.Errorf("%s: reentrancy not found in EtherBank (%v)", p, found)
		}
		if found[p+" clean__EtherBankFixed reentrancy"] {
			t.Errorf("%s: reentrancy reported on the fixed twin", p)
		}
	}
	db := stagetest.OpenViews(t, env)
	if n := stagetest.QueryInt(t, db, `SELECT count(DISTINCT profile) FROM vuln_eval WHERE class = 'reentrancy' AND tp = 1 AND fp = 0`); n != 2 {
		t.Errorf("vuln_eval: %d profiles with reentrancy tp 1 fp 0, want 2", n)
	}
}
