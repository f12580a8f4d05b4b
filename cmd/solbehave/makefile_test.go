package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestTestDepsSaysWhyAptFailed: when apt-get fails (here: the package
// manager locked by another process), make test-deps prints apt's reason,
// not only "not installed".
func TestTestDepsSaysWhyAptFailed(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make not installed")
	}
	fake := t.TempDir()
	for name, script := range map[string]string{
		"dpkg":    "exit 1", // nothing installed
		"id":      "echo 0", // root
		"apt-get": `echo "E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 4242 (apt-get)" >&2; exit 100`,
	} {
		if err := os.WriteFile(filepath.Join(fake, name), []byte("#!/bin/sh\n"+script+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("make", "-s", "-C", filepath.Join("..", ".."), "test-deps")
	cmd.Env = append(os.Environ(), "PATH="+fake+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("make test-deps: %v\n%s", err, out)
	}
	for _, want := range []string{"not installed: chromium", "Could not get lock", "held by process 4242"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("make test-deps output lacks %q:\n%s", want, out)
		}
	}
}
