package temporal

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writeModule writes a three-package module; nonce makes its packages new to
// the Go build cache, so `go build -v` compiles (and names) each of them.
func writeModule(t *testing.T, dir string, nonce int64, broken bool) {
	t.Helper()
	files := map[string]string{
		"go.mod":  "module example.com/devtest\n\ngo 1.21\n",
		"go.sum":  "",
		"main.go": "package main\n\nimport (\n\t\"example.com/devtest/a\"\n\t\"example.com/devtest/b\"\n)\n\nfunc main() { println(a.N + b.N) }\n",
		"a/a.go":  fmt.Sprintf("package a\n\nconst N = %d\n", nonce),
		"b/b.go":  fmt.Sprintf("package b\n\nconst N = %d\n", nonce+1),
	}
	if broken {
		files["b/b.go"] = "package b\n\nconst N = undefinedName\n"
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// The first build of the dev server takes many minutes on a small machine:
// while it runs, the log must say how far it got, not stay silent.
func TestDevServerBuildShowsProgress(t *testing.T) {
	src, cache := t.TempDir(), t.TempDir()
	writeModule(t, src, time.Now().UnixNano(), false)
	defer func(d time.Duration) { progressEvery = d }(progressEvery)
	progressEvery = time.Millisecond
	var logs bytes.Buffer
	bin, err := DevServerBinary(context.Background(), src, cache, slog.New(slog.NewJSONHandler(&logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("no binary at %s: %v", bin, err)
	}
	most := 0
	for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var rec struct {
			Msg      string `json:"msg"`
			Packages int    `json:"packages_compiled"`
		}
		if json.Unmarshal([]byte(line), &rec) == nil && rec.Msg == "building the Temporal dev server" {
			most = max(most, rec.Packages)
		}
	}
	if most < 2 {
		t.Fatalf("want progress records counting the compiled packages (a and b at least), got:\n%s", logs.String())
	}
}

// A build that fails says why, with the compiler's words.
func TestDevServerBuildFailureShowsOutput(t *testing.T) {
	src := t.TempDir()
	writeModule(t, src, time.Now().UnixNano(), true)
	_, err := DevServerBinary(context.Background(), src, t.TempDir(), slog.New(slog.NewTextHandler(&bytes.Buffer{}, nil)))
	if err == nil || !strings.Contains(err.Error(), "undefinedName") {
		t.Fatalf("want the compiler's error naming undefinedName, got %v", err)
	}
}
