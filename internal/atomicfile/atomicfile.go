// Package atomicfile writes files so that readers see either the old content
// or the new, never a part: the content goes to a temporary file in the same
// folder (`.<name>.tmp-<random>`, which no `*.json`/`*.parquet` glob matches),
// is synced, and is renamed over the final name; the folder is synced so the
// rename survives a crash. Every temporary-file-and-rename of the project goes
// through here.
package atomicfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/solbehave/solbehave/internal/failure"
)

// TempPattern is the os.CreateTemp pattern of the temporary file of name.
func TempPattern(name string) string { return "." + name + ".tmp-*" }

// Write creates path (and its folder) with what fill writes, atomically, with
// permissions perm. On any failure the temporary file is removed and path is
// left as it was. A failure to create, write, sync or rename the file (a
// full or read-only disk) is a retriable failure.Storage; an error of fill's
// own comes back as fill returned it.
func Write(path string, perm fs.FileMode, fill func(w io.Writer) error) (err error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return storage(err)
	}
	tmp, err := os.CreateTemp(dir, TempPattern(filepath.Base(path)))
	if err != nil {
		return storage(err)
	}
	committed := false
	defer func() { // also while a panic in fill unwinds
		if !committed {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := fill(tmp); err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) && pe.Path == tmp.Name() {
			return storage(err) // the write to the temporary file itself failed
		}
		return err
	}
	if err := commit(tmp, path, perm); err != nil {
		return storage(err)
	}
	committed = true
	return nil
}

// storage classes a write the disk refused: a rerun may find room.
func storage(err error) error { return failure.New(failure.Storage, true, err) }

// WriteFile is Write with the content given.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	return Write(path, perm, func(w io.Writer) error {
		_, err := io.Copy(w, bytes.NewReader(data))
		return err
	})
}

func commit(tmp *os.File, path string, perm fs.FileMode) error {
	if err := tmp.Chmod(perm); err != nil { // CreateTemp makes 0600 files
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	return syncDir(filepath.Dir(path))
}

// syncDir persists the rename itself; without it a crash could lose the new
// directory entry even though the file's data was synced.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}

// Dir builds a folder atomically: build fills a fresh temporary folder beside
// final, which is then renamed to final. When final appeared meanwhile (a
// concurrent builder), the temporary folder is dropped and final kept.
func Dir(final string, build func(dir string) error) error {
	parent := filepath.Dir(final)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return storage(err)
	}
	tmp, err := os.MkdirTemp(parent, TempPattern(filepath.Base(final)))
	if err != nil {
		return storage(err)
	}
	defer os.RemoveAll(tmp) // a no-op once renamed
	if err := build(tmp); err != nil {
		return err
	}
	if err := os.Rename(tmp, final); err != nil {
		if _, serr := os.Stat(final); serr == nil {
			return nil
		}
		return storage(err)
	}
	return nil
}
