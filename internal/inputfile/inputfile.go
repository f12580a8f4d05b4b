// Package inputfile reads the files that come from outside the pipeline: a
// corpus folder's records, DCR annotations, the configuration file, imported
// samples. It opens regular files only, without blocking, and reads them to
// a bound, so a link to /dev/zero, a FIFO or a device is an error naming the
// file instead of a process that grows until the kernel kills it or waits
// forever (where no signal can reach it).
package inputfile

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// ErrNotRegular is a path that is a folder, a FIFO, a device or a socket.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is a file over its read bound.
var ErrTooLarge = errors.New("file over the size limit")

// Open opens path for reading when it is (or links to) a regular file. The
// open itself does not block: a FIFO is refused, not waited on.
func Open(path string) (*os.File, error) {
	f, err := openNonblocking(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w (%s)", ErrNotRegular, kind(st.Mode()))}
	}
	return f, nil
}

// Check tells whether path is (or links to) a regular file, opening nothing.
func Check(path string) error {
	_, err := Stat(path)
	return err
}

// Stat is Check returning what it found: the file's information.
func Stat(path string) (fs.FileInfo, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w (%s)", ErrNotRegular, kind(st.Mode()))}
	}
	return st, nil
}

// Read reads a regular file of at most max bytes.
func Read(path string, max int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, tooLarge(path, max)
	}
	return b, nil
}

// Whole is the bound for a file the project wrote itself: none.
const Whole int64 = math.MaxInt64 - 1

// Digest is the SHA-256 (hex) of a regular file of at most max bytes,
// streamed in constant memory.
func Digest(path string, max int64) (string, error) {
	h := sha256.New()
	if err := Copy(h, path, max); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Copy writes a regular file of at most max bytes to w (a hash, mostly).
func Copy(w io.Writer, path string, max int64) error {
	f, err := Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	n, err := io.Copy(w, io.LimitReader(f, max+1))
	if err != nil {
		return err
	}
	if n > max {
		return tooLarge(path, max)
	}
	return nil
}

func tooLarge(path string, max int64) error {
	return &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w (%d bytes)", ErrTooLarge, max)}
}

func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return m.Type().String()
}

// Glob is filepath.Glob(filepath.Join(dir, pattern)) with dir taken as it
// is: '[', '?', '*' and '\' in its folder names (`results [v2]`) match
// themselves, and only pattern is pattern syntax.
func Glob(dir, pattern string) ([]string, error) {
	if runtime.GOOS != "windows" { // there '\' separates, and Match has no escape
		dir = globMeta.Replace(dir)
	}
	return filepath.Glob(filepath.Join(dir, pattern))
}

var globMeta = strings.NewReplacer(`\`, `\\`, "*", `\*`, "?", `\?`, "[", `\[`)
