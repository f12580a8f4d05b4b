package pipeline

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A dataset's handle carries its row type and a call status has its own
// type: writing rows of another dataset, or a plain string as a status,
// does not compile, while the same program with the right types does.
func TestDatasetHandlesAreTyped(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two programs")
	}
	build := func(file string) (string, error) {
		cmd := exec.Command("go", "build", "-o", filepath.Join(t.TempDir(), "bin"), filepath.Join("testdata", "typed", file))
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := build("match.go"); err != nil {
		t.Fatalf("the well-typed program does not build: %v\n%s", err, out)
	}
	out, err := build("mismatch.go")
	if err == nil {
		t.Fatal("rows of another dataset's type compiled")
	}
	for _, want := range []string{"[]schemas.Sample", "oracle (variable of type string)"} {
		if !strings.Contains(out, want) {
			t.Errorf("the compiler did not refuse %s:\n%s", want, out)
		}
	}
}
