package release

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

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
		return fmt.Errorf("publish: the corpus %s cannot be read (%w): a release without the corpus its rows were made from "+
			"cannot take a new model; give the corpus with --corpus", p.Corpus, err)
	}
	named := map[string]bool{}
	for _, m := range p.manifests {
		if m.Contract != "" {
			named[m.Contract] = true
		}
	}
	for _, e := range entries {
		if named[e.ID] {
			if err := copyEntry(filepath.Join(p.Corpus, e.ID), filepath.Join(p.Out, ReleaseCorpus, e.ID)); err != nil {
				return fmt.Errorf("publish: corpus %s: %w", e.ID, err)
			}
			delete(named, e.ID)
		}
	}
	if len(named) > 0 {
		missing := slices.Sorted(maps.Keys(named))
		return fmt.Errorf("publish: the corpus %s lacks %d contract(s) the rows were made from (%s): a release without them "+
			"cannot take a new model; give the corpus the runs read with --corpus", p.Corpus, len(missing), strings.Join(missing[:min(3, len(missing))], ", "))
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
