package faults

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/solbehave/solbehave/internal/solc"
)

// TestCommittedFaultCorpusMatchesItsGenerator regenerates the fault corpus
// and compares it byte for byte with data/faults.
func TestCommittedFaultCorpusMatchesItsGenerator(t *testing.T) {
	m := solc.NewManager(solc.Options{})
	defer m.Close()
	dir := t.TempDir()
	if err := Write(context.Background(), m, dir); err != nil {
		t.Fatal(err)
	}
	committed := filepath.Join("..", "..", "data", "faults")
	got, want := sortedFolders(dir), sortedFolders(committed)
	if len(got) != len(Expected) || len(got) != len(want) {
		t.Fatalf("folders: generated %d, committed %d, expected %d", len(got), len(want), len(Expected))
	}
	for i, f := range got {
		if f != want[i] {
			t.Fatalf("folder %d: generated %s, committed %s", i, f, want[i])
		}
		for _, name := range []string{"getsourcecode.json", "txlist.json"} {
			a, _ := os.ReadFile(filepath.Join(dir, f, name))
			b, _ := os.ReadFile(filepath.Join(committed, f, name))
			if !bytes.Equal(a, b) {
				t.Errorf("%s/%s differs from its generator (rerun `make demo-corpus`)", f, name)
			}
		}
	}
}
