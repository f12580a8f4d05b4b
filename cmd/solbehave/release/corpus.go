package release

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"

	"github.com/solbehave/solbehave/internal/atomicfile"
	"github.com/solbehave/solbehave/internal/etherscan"
	"github.com/solbehave/solbehave/internal/inputfile"
)

// ReleaseCorpus is the release's folder of recorded Etherscan responses:
// the corpus its rows were made from, so that `run --from-release` can
// evaluate one more model on the same contracts and histories.
const ReleaseCorpus = "corpus"

// maxCorpusFile bounds one recorded response copied into a release.
const maxCorpusFile = 512 << 20

// writeCorpus copies the corpus folder of every contract the release's
// units name (its regular files: recorded source and transactions).
func (p *Publisher) writeCorpus(context.Context, *sql.DB) error {
	entries, err := etherscan.ListCorpus(p.Corpus)
	if err != nil {
		return nil // no corpus here: the release holds no corpus/ and cannot take a new model (run --from-release says so)
	}
	named := map[string]bool{}
	for _, m := range p.manifests {
		named[m.Contract] = true
	}
	for _, e := range entries {
		if named[e.ID] {
			if err := copyEntry(filepath.Join(p.Corpus, e.ID), filepath.Join(p.Out, ReleaseCorpus, e.ID)); err != nil {
				return fmt.Errorf("publish: corpus %s: %w", e.ID, err)
			}
		}
	}
	return nil
}

// copyEntry copies a contract folder's regular files (no links, no folders:
// a corpus entry is flat).
func copyEntry(from, to string) error {
	items, err := os.ReadDir(from)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(to, 0o755); err != nil {
		return err
	}
	for _, it := range items {
		if !it.Type().IsRegular() {
			continue
		}
		b, err := inputfile.Read(filepath.Join(from, it.Name()), maxCorpusFile)
		if err != nil {
			return err
		}
		if err := atomicfile.WriteFile(filepath.Join(to, it.Name()), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}
