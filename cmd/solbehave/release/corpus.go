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
// units name (its regular files: recorded source and transactions). A
// corpus that cannot be read, or lacks a contract, leaves a release that
// cannot take a new model: publish says so loudly (NoCorpus, printed and
// written in the card), and run --from-release refuses it.
func (p *Publisher) writeCorpus(context.Context, *sql.DB) error {
	entries, err := etherscan.ListCorpus(p.Corpus)
	if err != nil {
		p.NoCorpus = fmt.Sprintf("the corpus %s cannot be read (%v)", p.Corpus, err)
		return nil
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
		p.NoCorpus = fmt.Sprintf("the corpus %s lacks %d contract(s) the rows were made from (%s)", p.Corpus, len(missing),
			strings.Join(missing[:min(3, len(missing))], ", "))
	}
	return nil
}

// writeNoCorpus says in the card that the release cannot take a new model.
func (p *Publisher) writeNoCorpus(b *strings.Builder) {
	if p.NoCorpus != "" {
		fmt.Fprintf(b, "\n**This release cannot take a new model** (`run --from-release` refuses it): %s when it was published.\n", p.NoCorpus)
	}
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
