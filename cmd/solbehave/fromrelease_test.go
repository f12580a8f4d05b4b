package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDataFolderInsideTheReleaseIsRefused: `run --from-release R --data R`
// was refused only after writing R/locks/, which broke R's checksums for
// every later import; it is refused with nothing written, through a link
// or a subfolder too.
func TestDataFolderInsideTheReleaseIsRefused(t *testing.T) {
	tmp := t.TempDir()
	rel := filepath.Join(tmp, "rel")
	os.Mkdir(rel, 0o755)
	os.Symlink(rel, filepath.Join(tmp, "link"))
	for _, data := range []string{rel, rel + "/", filepath.Join(rel, "sub", "data"), filepath.Join(tmp, "link"), filepath.Join(tmp, "link", "x")} {
		out, err := solbehave(t, "run", "--from-release", rel, "--data", data, "--quiet")
		if err == nil || !strings.Contains(err.Error(), "is the release or a folder inside it") {
			t.Errorf("--data %s: err %v, output %s", data, err, out)
		}
	}
	if entries, _ := os.ReadDir(rel); len(entries) != 0 {
		t.Errorf("the refused runs wrote into the release: %v", entries)
	}
	for _, data := range []string{filepath.Join(tmp, "relx"), tmp} {
		if err := dataOutsideRelease(rel, data); err != nil {
			t.Errorf("--data %s: %v", data, err)
		}
	}
}
