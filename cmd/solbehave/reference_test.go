package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/solbehave/solbehave/pipeline"
)

// With several LLM generators and no --reference-extractor a run is refused
// before any stage, saying how to choose; the choice (named, or the one LLM
// generator's default) is recorded in the o3 plan's parameters.
func TestReferenceExtractorIsChosen(t *testing.T) {
	corpus := filepath.Join("..", "..", "data", "corpus", "demo")
	refused := t.TempDir()
	_, err := solbehave(t, "run", "--only", "o3", "--corpus", corpus, "--data", refused, "--quiet",
		"--generator", "openai:a,openai:b")
	if err == nil || !strings.Contains(err.Error(), "--reference-extractor llm:a") || !strings.Contains(err.Error(), "llm:b") {
		t.Fatalf("two LLM generators without a reference extractor: %v, want a refusal naming the choices", err)
	}
	if _, err := os.Stat(filepath.Join(refused, "warehouse", "runs")); !os.IsNotExist(err) {
		t.Errorf("a refused run left a runs row (%v)", err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--generator", "openai:a,openai:b", "--reference-extractor", "llm:b"}, "llm:b"},
		{[]string{"--generator", "openai:a,mutant"}, "llm:a"},
	} {
		data := t.TempDir()
		args := append([]string{"run", "--only", "o3", "--corpus", corpus, "--data", data, "--quiet"}, c.args...)
		if out, err := solbehave(t, args...); err != nil {
			t.Fatalf("%v: %v\n%s", c.args, err, out)
		}
		if got := pipeline.PlanParams(data, "o3")["reference-extractor"]; got != c.want {
			t.Errorf("%v: o3's recorded reference-extractor %q, want %q", c.args, got, c.want)
		}
	}
}
