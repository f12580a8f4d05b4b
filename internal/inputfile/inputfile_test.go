package inputfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestOnlyRegularFilesAreRead: a regular file and a link to one are read;
// a folder, a FIFO, /dev/zero and a link to it are refused at once, and a
// file over the bound is refused, by Read and Digest alike.
func TestOnlyRegularFilesAreRead(t *testing.T) {
	dir := t.TempDir()
	regular := filepath.Join(dir, "a.json")
	os.WriteFile(regular, []byte(`{"x":1}`), 0o644)
	os.Symlink(regular, filepath.Join(dir, "link.json"))
	os.Symlink("/dev/zero", filepath.Join(dir, "zero.json"))
	os.Mkdir(filepath.Join(dir, "folder.json"), 0o755)
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a.json", "link.json"} {
		b, err := Read(filepath.Join(dir, name), 100)
		if err != nil || string(b) != `{"x":1}` {
			t.Errorf("%s: got %q, %v", name, b, err)
		}
		if _, err := Digest(filepath.Join(dir, name), 100); err != nil {
			t.Errorf("%s: digest: %v", name, err)
		}
	}
	for _, name := range []string{"zero.json", "folder.json", "fifo.json"} {
		p := filepath.Join(dir, name)
		if _, err := Read(p, 1<<20); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: want ErrNotRegular naming the file, got %v", name, err)
		}
		if _, err := Digest(p, 1<<20); !errors.Is(err, ErrNotRegular) {
			t.Errorf("%s: digest: want ErrNotRegular, got %v", name, err)
		}
		if err := Check(p); !errors.Is(err, ErrNotRegular) {
			t.Errorf("%s: check: want ErrNotRegular, got %v", name, err)
		}
	}
	if _, err := Read(regular, 3); !errors.Is(err, ErrTooLarge) {
		t.Errorf("over the bound: want ErrTooLarge, got %v", err)
	}
	if _, err := Digest(regular, 3); !errors.Is(err, ErrTooLarge) {
		t.Errorf("digest over the bound: want ErrTooLarge, got %v", err)
	}
}
