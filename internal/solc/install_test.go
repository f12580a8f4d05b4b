package solc

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestInstallRace has two installers (as two processes would: no shared
// lock) install the same compiler into an empty cache at once.
func TestInstallRace(t *testing.T) {
	needNode(t)
	cache := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	paths := make([]string, 2)
	errs := make([]error, 2)
	for i := range paths {
		wg.Add(1)
		go func() {
			defer wg.Done()
			paths[i], errs[i] = newInstaller(cache, "npm", nil).soljson(ctx, "solc@0.4.24")
		}()
	}
	wg.Wait()
	for i := range paths {
		if errs[i] != nil {
			t.Fatalf("installer %d: %v", i, errs[i])
		}
		if !fileExists(paths[i]) || paths[i] != paths[0] {
			t.Fatalf("installer %d: path %s", i, paths[i])
		}
	}
	entries, _ := os.ReadDir(filepath.Join(cache, "solc"))
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".install-") {
			t.Errorf("temporary folder left behind: %s", e.Name())
		}
	}
	if err := checkPackageVersion(filepath.Join(filepath.Dir(paths[0]), "package.json"), "0.4.24"); err != nil {
		t.Fatal(err)
	}
}

func TestInstallUnknownOnNpm(t *testing.T) {
	needNode(t)
	_, err := newInstaller(t.TempDir(), "npm", nil).soljson(context.Background(), "solc@0.4.99")
	if !errors.Is(err, ErrUnknownVersion) || !strings.Contains(err.Error(), "0.4.99") {
		t.Fatalf("err = %v, want ErrUnknownVersion naming 0.4.99", err)
	}
	t.Log(err)
}
