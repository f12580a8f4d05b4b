package pipeline

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"unicode/utf8"

	"github.com/gofrs/flock"

	"github.com/solbehave/solbehave/internal/inputfile"
	"github.com/solbehave/solbehave/internal/warehouse"
)

// A model's sample folders and warehouse parts are named after it through
// warehouse.Sanitize, which is not injective: `openai:m"q` and `openai:m'q`,
// `import:a+b` and `import:a_b`, `openai:org/m` and `openai:org_m` each
// share one name. Inside one run the generate stage refuses such a pair;
// across runs the data folder remembers which model owns each name
// (<data>/state/model-names.json, beside the models its manifests and
// imports name) and ClaimModelNames refuses a new model whose name another
// already owns, before anything of the run is written. Renaming the folders
// instead would move the files of every existing data folder and release.

// ModelFolder is the name a model's folders and parts carry.
func ModelFolder(model string) string { return warehouse.Sanitize(model) }

func modelNamesPath(data string) string { return filepath.Join(data, "state", "model-names.json") }

// ClaimModelNames records models as the owners of their folder names in
// data, refusing (and recording nothing) when one of them shares its folder
// name with another model the folder holds or with another of models.
func ClaimModelNames(data string, models []string) error {
	if len(models) == 0 {
		return nil
	}
	if err := os.MkdirAll(filepath.Join(data, LockDir), 0o755); err != nil {
		return err
	}
	l := flock.New(filepath.Join(data, LockDir, "model-names.lock"), flock.SetPermissions(0o644))
	if err := l.Lock(); err != nil { // two runs claiming at once see each other's names
		return err
	}
	defer l.Unlock()
	owners, recorded, err := modelOwners(data)
	if err != nil {
		return err
	}
	for _, m := range models {
		if !utf8.ValidString(m) { // JSON (this record, the manifests) would hold another name
			return fmt.Errorf("model name %q is not valid UTF-8", m)
		}
		f := ModelFolder(m)
		for _, other := range owners[f] {
			if other != m {
				return fmt.Errorf("model %q would write the sample folders and warehouse parts of model %q (both are named %q in file names): rename it, or forget %q first", m, other, f, other)
			}
		}
		owners[f] = append(owners[f], m)
		recorded[m] = f
	}
	return writeModelNames(data, recorded)
}

// modelOwners are, per folder name, the models that own it: those recorded,
// those with units (folders from before the record) and those imported.
// recorded is the record alone, model -> folder name.
func modelOwners(data string) (map[string][]string, map[string]string, error) {
	recorded, err := readModelNames(data)
	if err != nil {
		return nil, nil, err
	}
	held, err := Models(data)
	if err != nil {
		return nil, nil, err
	}
	owners := map[string][]string{}
	for _, m := range append(slices.Sorted(maps.Keys(recorded)), held...) {
		f := ModelFolder(m)
		if !slices.Contains(owners[f], m) {
			owners[f] = append(owners[f], m)
		}
	}
	return owners, recorded, nil
}

func readModelNames(data string) (map[string]string, error) {
	out := map[string]string{}
	b, err := inputfile.Read(modelNamesPath(data), 16<<20)
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, fmt.Errorf("%s: %w", modelNamesPath(data), err)
	}
	return out, nil
}

func writeModelNames(data string, names map[string]string) error {
	return writeJSON(modelNamesPath(data), names)
}

// releaseModelName is forget's part: the forgotten model no longer owns its
// folder name, which another model may then take.
func releaseModelName(data, model string) error {
	names, err := readModelNames(data)
	if err != nil {
		return err
	}
	if _, ok := names[model]; !ok {
		return nil
	}
	delete(names, model)
	return writeModelNames(data, names)
}

// ModelNamer is a stage that brings models of its own naming into the data
// folder (generate: its generators), which runStages claims before any
// stage runs.
type ModelNamer interface {
	ModelNames(data string) []string
}

// ClaimStagesModels claims the models every ModelNamer among stages names.
func ClaimStagesModels(data string, stages []Stage) error {
	var models []string
	for _, s := range stages {
		if n, ok := s.(ModelNamer); ok {
			models = append(models, n.ModelNames(data)...)
		}
	}
	return ClaimModelNames(data, models)
}
