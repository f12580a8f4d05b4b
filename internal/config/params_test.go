package config

import (
	"strings"
	"testing"
)

// TestLocallessHidesEveryLocalPath: an absolute path, one in an import
// generator spec and one in a list show their last element only; URLs,
// relative paths and plain values pass unchanged.
func TestLocallessHidesEveryLocalPath(t *testing.T) {
	for in, want := range map[string]string{
		"/home/u/corpus/demo":                   "…/demo",
		"import:/tmp/x/bench":                   "import:…/bench",
		"mutant,import:/tmp/x/bench":            "mutant,import:…/bench",
		"[mutant import:/tmp/x/bench openai:m]": "[mutant import:…/bench openai:m]",
		"http://host:8080/v1/x":                 "http://host:8080/v1/x",
		"data/corpus/demo":                      "data/corpus/demo",
		"0.3":                                   "0.3",
	} {
		if got := Localless(in); got != want {
			t.Errorf("Localless(%q) = %q, want %q", in, got, want)
		}
	}
}

// An older manifest recorded an unset generator or extractor as "", which
// stood for the value a run now records: not a change of parameters.
func TestDiffParamsTakesUnrecordedDefaultsAsSame(t *testing.T) {
	was := map[string]string{"generator": "", "extractor": "", "o2-budget": "30", "llm-url": ""}
	now := map[string]string{"generator": "mutant,reference", "extractor": "static", "o2-budget": "35", "llm-url": "http://x"}
	got := strings.Join(DiffParams(was, now), "; ")
	if got != `llm-url "" → http://x; o2-budget 30 → 35` {
		t.Errorf("DiffParams = %q", got)
	}
}
