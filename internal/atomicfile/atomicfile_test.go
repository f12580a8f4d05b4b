package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/solbehave/solbehave/internal/failure"
)

func TestWriteReplacesWholeOrNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "a.json")
	if err := WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("disk full")
	err := Write(path, 0o644, func(w io.Writer) error {
		w.Write([]byte("half of the new"))
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("want the fill's error, got %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Fatalf("a failed write changed the file: %q", b)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Fatalf("a failed write left %d entries, want only a.json", len(entries))
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o644 {
		t.Fatalf("mode %v, want 0644", info.Mode().Perm())
	}
}

func TestDirKeepsAConcurrentWinner(t *testing.T) {
	final := filepath.Join(t.TempDir(), "pkg")
	err := Dir(final, func(tmp string) error {
		// another builder finishes first
		if err := os.MkdirAll(filepath.Join(final, "x"), 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(tmp, "mine"), nil, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(final, "x")); err != nil {
		t.Fatalf("the winner's folder was replaced: %v", err)
	}
	entries, _ := os.ReadDir(filepath.Dir(final))
	if len(entries) != 1 {
		t.Fatalf("left %d entries beside the folder", len(entries))
	}
}

// TestDiskFailuresAreStorage: a write the disk refuses (the temporary file
// cannot be written, the rename fails) is a retriable storage failure; an
// error of the caller's fill keeps its own class.
func TestDiskFailuresAreStorage(t *testing.T) {
	dir := t.TempDir()
	refused := Write(filepath.Join(dir, "a"), 0o644, func(w io.Writer) error {
		w.(*os.File).Close() // as a full disk would: the write fails on the temporary file
		_, err := w.Write([]byte("x"))
		return err
	})
	os.MkdirAll(filepath.Join(dir, "taken", "x"), 0o755)
	renamed := WriteFile(filepath.Join(dir, "taken"), []byte("x"), 0o644)
	for _, err := range []error{refused, renamed} {
		if c, retriable := failure.Of(err); c != failure.Storage || !retriable {
			t.Errorf("%v: class %s (retriable %v), want storage", err, c, retriable)
		}
	}
	own := errors.New("the query failed")
	if err := Write(filepath.Join(dir, "b"), 0o644, func(io.Writer) error { return own }); err != own {
		t.Errorf("fill's own error came back as %v", err)
	}
}
