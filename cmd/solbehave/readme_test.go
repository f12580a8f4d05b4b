package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestArchitectureMapNamesEveryPackage: every Go package of the module has
// its line in the README's architecture map (as `name/`), so the map a new
// reader starts from stays whole as packages come and go.
func TestArchitectureMapNamesEveryPackage(t *testing.T) {
	root := filepath.Join("..", "..")
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(readme), "## Architecture")
	block := strings.SplitN(after, "```", 3)
	if !ok || len(block) < 3 {
		t.Fatal("README has no architecture map (a code block under ## Architecture)")
	}
	named := block[1]
	var missing []string
	for _, dir := range goPackageDirs(t, root) {
		if !strings.Contains(named, filepath.Base(dir)+"/") {
			missing = append(missing, dir)
		}
	}
	if len(missing) > 0 {
		t.Errorf("packages the README's architecture map does not name: %v", missing)
	}
}

// goPackageDirs lists the folders below root that hold non-test Go files,
// leaving out the separate module tools/, data and testdata (not packages).
func goPackageDirs(t *testing.T, root string) []string {
	t.Helper()
	seen := map[string]bool{}
	var dirs []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() && (rel == "tools" || rel == "data" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && rel != ".") {
			return filepath.SkipDir
		}
		dir := filepath.Dir(rel)
		if !d.IsDir() && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") && dir != "." && !seen[dir] {
			seen[dir] = true
			dirs = append(dirs, filepath.ToSlash(dir))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) < 40 {
		t.Fatalf("found %d package folders, want the module's (over 40)", len(dirs))
	}
	return dirs
}
