package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/solbehave/solbehave/cmd/solbehave/release"
	"github.com/solbehave/solbehave/pipeline"
)

// The paper's authors did not make this run: with no creators given,
// publish refuses and writes nothing.
func TestPublishRefusesMissingCreators(t *testing.T) {
	data := synthData(t, 3)
	t.Chdir(t.TempDir()) // no solbehave.toml here
	rel := filepath.Join(t.TempDir(), "release")
	_, err := solbehave(t, "publish", "--data", data, "--out", rel)
	if err == nil || !strings.Contains(err.Error(), "no creators given") {
		t.Fatalf("publish without creators: want a refusal naming them, got %v", err)
	}
	if _, err := os.Stat(rel); err == nil {
		t.Errorf("a refused publish wrote %s", rel)
	}
}

// Title, creators, version and licence come from solbehave.toml (a flag
// overrides it); the paper stays the preferred citation; a dataset with no
// rows is no configuration of the card and is marked empty.
func TestPublishTakesReleaseMetadataFromConfig(t *testing.T) {
	data := synthData(t, 3)
	if err := os.RemoveAll(filepath.Join(data, "warehouse", "vuln_labels")); err != nil {
		t.Fatal(err)
	}
	if _, err := solbehave(t, "views", "--data", data); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeConfig(t, dir, `title = "Regenerated contracts, autumn run"
creators = ["Lovelace, Ada", "Example Lab"]
release-version = "2.1.0"
license = "CC0-1.0"
`)
	t.Chdir(dir)
	rel := filepath.Join(t.TempDir(), "release")
	if out, err := solbehave(t, "publish", "--data", data, "--out", rel, "--release-version", "2.1.1"); err != nil {
		t.Fatalf("publish: %v\n%s", err, out)
	}
	var cff struct {
		Title, Version, License string
		Authors                 []map[string]string
		Preferred               struct{ Title string } `yaml:"preferred-citation"`
	}
	if err := release.ReadYAML(filepath.Join(rel, "CITATION.cff"), &cff); err != nil {
		t.Fatal(err)
	}
	if cff.Title != "Regenerated contracts, autumn run" || cff.Version != "2.1.1" || cff.License != "CC0-1.0" {
		t.Errorf("CITATION.cff title %q version %q license %q: want the config's, the flag's version", cff.Title, cff.Version, cff.License)
	}
	if len(cff.Authors) != 2 || cff.Authors[0]["family-names"] != "Lovelace" || cff.Authors[0]["given-names"] != "Ada" ||
		cff.Authors[1]["name"] != "Example Lab" {
		t.Errorf("CITATION.cff authors %v: want the creators given", cff.Authors)
	}
	if cff.Preferred.Title != release.PaperTitle {
		t.Errorf("preferred citation %q, want the paper", cff.Preferred.Title)
	}
	var zen struct {
		Title    string
		Creators []map[string]string
	}
	if err := release.ReadJSON(filepath.Join(rel, ".zenodo.json"), &zen); err != nil {
		t.Fatal(err)
	}
	if zen.Title != cff.Title || len(zen.Creators) != 2 || zen.Creators[0]["name"] != "Lovelace, Ada" {
		t.Errorf(".zenodo.json title %q creators %v: want the creators given", zen.Title, zen.Creators)
	}
	for _, a := range release.PaperAuthors {
		for _, c := range zen.Creators {
			if c["name"] == a {
				t.Errorf(".zenodo.json names the paper's author %s as a creator", a)
			}
		}
	}
	front, err := release.CardFront(filepath.Join(rel, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	configs, _ := front["configs"].([]any)
	for _, c := range configs {
		if m, _ := c.(map[string]any); m["config_name"] == "vuln_labels" {
			t.Error("the card offers vuln_labels, which has no rows, as a configuration")
		}
	}
	if len(configs) == 0 {
		t.Error("the card has no configuration")
	}
	card, _ := os.ReadFile(filepath.Join(rel, "README.md"))
	if line := grepLine(string(card), "[`vuln_labels`]"); !strings.Contains(line, "empty") {
		t.Errorf("the datasets table does not mark vuln_labels empty: %q", line)
	}
	if !strings.Contains(string(card), "Published by Lovelace, Ada; Example Lab") {
		t.Error("the card does not say who published it")
	}
}

// Manifests record the generator and extractor a run ran with, not the
// unset flag ("").
func TestManifestsRecordEffectiveGeneratorAndExtractor(t *testing.T) {
	for _, tc := range []struct {
		args                 []string
		generator, extractor string
	}{
		{nil, "mutant,reference", "static"},
		{[]string{"--generator", "openai:m,mutant"}, "openai:m,mutant", "llm:m"},
	} {
		root, g := newRootWithGlobals()
		root.SetOut(&strings.Builder{})
		root.SetArgs(append([]string{"config", "--format", "json"}, tc.args...))
		t.Chdir(t.TempDir())
		if err := root.ExecuteContext(context.Background()); err != nil {
			t.Fatal(err)
		}
		ri := g.runInfo("r")
		if got := ri.Params["generate"]["generator"]; got != tc.generator {
			t.Errorf("%v: generate records generator %q, want %q", tc.args, got, tc.generator)
		}
		if got := ri.Params["dcr"]["extractor"]; got != tc.extractor {
			t.Errorf("%v: dcr records extractor %q, want %q", tc.args, got, tc.extractor)
		}
	}
}

// A release written inside the data folder would be read by the views as
// the warehouse's own parts (one contract row became 874): publish refuses
// --out at any depth inside it, says so when a link leads there, and writes
// nothing; the contracts view keeps its rows.
func TestPublishRefusesOutInsideTheDataFolder(t *testing.T) {
	data := synthData(t, 3)
	before := queryRows(t, data, "SELECT count(*) FROM contracts")
	parts, _ := filepath.Glob(filepath.Join(data, "warehouse", "contracts", "*"))
	if len(parts) == 0 {
		t.Fatal("the synthetic warehouse has no contracts partition")
	}
	link := filepath.Join(t.TempDir(), "shortcut")
	if err := os.Symlink(filepath.Join(data, "warehouse"), link); err != nil {
		t.Fatal(err)
	}
	for out, via := range map[string]bool{
		filepath.Join(parts[0], "rel"):       false,
		filepath.Join(data, "releases", "r"): false,
		filepath.Join(link, "contracts"):     true,
		link:                                 true,
	} {
		_, err := solbehave(t, "publish", "--data", data, "--out", out, "--creators", "Tester, Ada")
		if err == nil || !strings.Contains(err.Error(), "inside the data folder") || strings.Contains(err.Error(), "through a link") != via {
			t.Errorf("--out %s: want a refusal naming the data folder (through a link: %v), got %v", out, via, err)
		}
	}
	for _, p := range []string{filepath.Join(parts[0], "rel"), filepath.Join(data, "releases")} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("a refused publish wrote %s", p)
		}
	}
	if after := queryRows(t, data, "SELECT count(*) FROM contracts"); strings.Join(after, ",") != strings.Join(before, ",") {
		t.Errorf("contracts had %v rows, now %v", before, after)
	}
}

// Two publishes to one --out would both find it empty and overwrite each
// other: the folder is locked, a publish finding it held is refused and
// writes nothing into it, and of publishes started at once one succeeds and
// the release passes its check.
func TestConcurrentPublishesToOneFolder(t *testing.T) {
	data := synthData(t, 3)
	held := filepath.Join(t.TempDir(), "held")
	unlock, err := pipeline.LockFolder(filepath.Join(held, "warehouse")) // as a publish in progress holds it
	if err != nil {
		t.Fatal(err)
	}
	_, err = solbehave(t, "publish", "--data", data, "--out", held, "--creators", "Tester, Ada")
	unlock()
	if err == nil || !strings.Contains(err.Error(), "being written by another process") {
		t.Fatalf("publish into a folder another publish holds: want a refusal, got %v", err)
	}
	if entries, _ := os.ReadDir(held); len(entries) != 1 {
		t.Errorf("the refused publish wrote into the held folder: %v", entries)
	}

	out := filepath.Join(t.TempDir(), "release")
	errs := make([]error, 3)
	var wg sync.WaitGroup
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = solbehave(t, "publish", "--data", data, "--out", out, "--creators", "Tester, Ada")
		}()
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		if err == nil {
			ok++
		} else if !strings.Contains(err.Error(), "being written by another process") && !strings.Contains(err.Error(), "not empty") {
			t.Errorf("a concurrent publish failed for another reason: %v", err)
		}
	}
	if ok != 1 {
		t.Errorf("%d of %d concurrent publishes to one folder reported success, want 1", ok, len(errs))
	}
	if err := release.Check(out); err != nil {
		t.Errorf("the release left by concurrent publishes fails its check: %v", err)
	}
}
