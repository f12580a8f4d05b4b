package pipeline

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"

	"github.com/solbehave/solbehave/internal/inputfile"
)

// A data folder can start from a published release (`run --from-release`):
// the release's models come in as rows, not as units to recompute (their
// samples may come from endpoints nobody can call again). Their units are
// current by definition: a run plans them (compile, O1, O2, O3 and vuln plan
// every model the warehouse holds) and skips them, and `forget` removes them
// like any other model. <data>/state/imported.json records what came from
// which release.

// ImportedRelease is one release a data folder took models from.
type ImportedRelease struct {
	Title    string                       `json:"title"`
	Version  string                       `json:"version"`
	Checksum string                       `json:"checksum"` // sha256 of the release's SHA256SUMS
	Params   map[string]map[string]string `json:"params"`   // stage -> the parameters its units were made with
	Models   []ImportedModel              `json:"models"`
}

// ImportedModel is one model of a release and what its import wrote.
type ImportedModel struct {
	Model string   `json:"model"`
	Parts []string `json:"parts"` // relative to the warehouse root
	Files []string `json:"files"` // sample files, relative to the data folder
}

func importedPath(data string) string { return filepath.Join(data, "state", "imported.json") }

// ReadImported is the folder's imported releases (none when it has none).
func ReadImported(data string) ([]ImportedRelease, error) {
	b, err := inputfile.Read(importedPath(data), 64<<20)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []ImportedRelease
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, fmt.Errorf("%s: %w", importedPath(data), err)
	}
	return out, nil
}

// WriteImported records the folder's imported releases.
func WriteImported(data string, releases []ImportedRelease) error {
	return writeJSON(importedPath(data), releases)
}

// ImportedModels maps each imported model to the title of its release.
func ImportedModels(data string) map[string]string {
	rels, _ := ReadImported(data) // an unreadable record imports nothing; run and status say so through ReadImported
	out := map[string]string{}
	for _, r := range rels {
		for _, m := range r.Models {
			out[m.Model] = r.Title
		}
	}
	return out
}

// dropImported removes model from the record.
func dropImported(data, model string) error {
	rels, err := ReadImported(data)
	if err != nil {
		return err
	}
	i, j := findImported(rels, model)
	if i < 0 {
		return nil
	}
	rels[i].Models = slices.Delete(rels[i].Models, j, j+1)
	return WriteImported(data, rels)
}

// findImported is where model is in rels (release i, model j; -1 when absent).
func findImported(rels []ImportedRelease, model string) (i, j int) {
	for i, r := range rels {
		if j := slices.IndexFunc(r.Models, func(m ImportedModel) bool { return m.Model == model }); j >= 0 {
			return i, j
		}
	}
	return -1, -1
}
