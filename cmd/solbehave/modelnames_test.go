package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCollidingModelNamesRefusedAcrossRuns: `import:…/a+b`, then
// `import:…/a_b` in a later run overwrote the first model's samples and
// parts (one folder name); the later run is refused before any stage runs.
func TestCollidingModelNamesRefusedAcrossRuns(t *testing.T) {
	data, dirs := t.TempDir(), t.TempDir()
	corpus := filepath.Join("..", "..", "data", "corpus", "demo")
	for _, d := range []string{"a+b", "a_b"} {
		if err := os.Mkdir(filepath.Join(dirs, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	generate := func(folder string) (string, error) {
		return solbehave(t, "generate", "--data", data, "--corpus", corpus, "--quiet", "--generator", "import:"+filepath.Join(dirs, folder))
	}
	if out, err := generate("a+b"); err != nil {
		t.Fatal(err, out)
	}
	out, err := generate("a_b")
	if err == nil || !strings.Contains(err.Error(), `would write the sample folders and warehouse parts of model "import:a+b"`) {
		t.Fatalf("import:a_b after import:a+b: err %v, output %s", err, out)
	}
	if _, err := generate("a+b"); err != nil {
		t.Errorf("import:a+b again: %v", err)
	}
}
