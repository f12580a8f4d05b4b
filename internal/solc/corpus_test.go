package solc

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCorpusVersionsResolve maps every CompilerVersion of the shared mainnet
// corpus (nightlies included) to an installable release (no I/O beyond
// reading the index).
func TestCorpusVersionsResolve(t *testing.T) {
	index := filepath.Join("..", "..", "..", "shared", "corpus", "mainnet", "index.json")
	data, err := os.ReadFile(index)
	if err != nil {
		t.Skipf("shared corpus not present (%v): ../shared beside the checkout holds it", err)
	}
	var entries []struct{ Name, Compiler string }
	if err := json.Unmarshal(data, &entries); err != nil {
		t.Fatal(err)
	}
	nightlies := 0
	for _, e := range entries {
		rel, err := ResolveRelease(e.Compiler)
		if err != nil {
			t.Errorf("%s: %v", e.Name, err)
			continue
		}
		if strings.Contains(e.Compiler, "nightly") {
			nightlies++
			if rel.Substituted == "" || !strings.HasPrefix(strings.TrimPrefix(e.Compiler, "v"), rel.Version) {
				t.Errorf("%s: nightly %s -> %+v", e.Name, e.Compiler, rel)
			}
		}
	}
	if len(entries) == 0 || nightlies == 0 {
		t.Fatalf("%d entries, %d nightlies: index format changed?", len(entries), nightlies)
	}
}
