package pipeline

import (
	"os"
	"path/filepath"

	"github.com/solbehave/solbehave/internal/atomicfile"
	"github.com/solbehave/solbehave/internal/inputfile"
)

// PublishedDir holds, in a data folder started from a release (`run
// --from-release`), the release's contract-level files that a model wrote:
// the skeletons (their NatSpec) and the DCR graphs. The stages take them
// instead of asking the model again, so a new model is judged on exactly
// the skeletons and reference graphs the published models were.
const PublishedDir = "published"

// maxPublished bounds one published file read back.
const maxPublished = 64 << 20

// ReadPublished reads the release's file at rel (a data-folder path, as the
// release's files dataset names it); ok is false where there is none.
func ReadPublished(data, rel string) (b []byte, ok bool) {
	rel = filepath.FromSlash(rel)
	if !filepath.IsLocal(rel) {
		return nil, false
	}
	b, err := inputfile.Read(filepath.Join(data, PublishedDir, rel), maxPublished)
	return b, err == nil
}

// WritePublished stores a release's file at rel below PublishedDir.
func WritePublished(data, rel string, b []byte) (string, error) {
	rel = filepath.FromSlash(rel)
	if !filepath.IsLocal(rel) {
		return "", os.ErrInvalid
	}
	path := filepath.Join(data, PublishedDir, rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", err
	}
	return path, atomicfile.WriteFile(path, b, 0o644)
}
