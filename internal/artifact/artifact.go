// Package artifact stores compiler outputs content-addressed, so a sample
// (or an original) is compiled once and every oracle deploys the same bytes
// without recompiling. An artifact is a gzipped JSON solc.Output under
// <data>/artifacts/<sha256 of its JSON>.json.gz.
package artifact

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/solbehave/solbehave/internal/atomicfile"
	"github.com/solbehave/solbehave/internal/solc"
)

// Store is a folder of artifacts.
type Store struct{ Dir string }

// New returns the store under a data root.
func New(dataDir string) *Store { return &Store{Dir: filepath.Join(dataDir, "artifacts")} }

// Put stores out and returns its id (a sha256). Storing the same output twice
// is harmless: the file is only written when absent.
func (s *Store) Put(out *solc.Output) (string, error) {
	raw, err := json.Marshal(out)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(raw)
	id := hex.EncodeToString(sum[:])
	path := s.path(id)
	if _, err := os.Stat(path); err == nil {
		return id, nil
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(raw)
	if err := zw.Close(); err != nil {
		return "", err
	}
	return id, atomicfile.WriteFile(path, buf.Bytes(), 0o644)
}

// Get loads an artifact by id.
func (s *Store) Get(id string) (*solc.Output, error) {
	f, err := os.Open(s.path(id))
	if err != nil {
		return nil, fmt.Errorf("artifact %s: %w", id, err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("artifact %s: %w", id, err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("artifact %s: %w", id, err)
	}
	var out solc.Output
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, fmt.Errorf("artifact %s: %w", id, err)
	}
	return &out, nil
}

func (s *Store) path(id string) string { return filepath.Join(s.Dir, id+".json.gz") }
