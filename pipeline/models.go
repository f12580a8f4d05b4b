package pipeline

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/gofrs/flock"
)

// A data folder holds the rows of every model any run evaluated: a run adds
// its generators' units and leaves the others' (see Scoped). Removing a
// model is this explicit step, never a side effect of a run.

// Removal is what forgetting a model removes: its units' manifests and plan
// entries, the warehouse parts they wrote and the files they own (sample
// folders), stage by stage.
type Removal struct {
	Model    string
	Units    map[string]int      // stage -> units
	Parts    []string            // relative to the warehouse root
	Owned    []string            // relative to the data folder
	ids      map[string][]string // stage -> unit ids
	imported bool                // the model came from a release (ImportedRelease)
	named    bool                // the model owns its folder name (modelnames.go)
}

// Empty says whether the model has no unit in the folder, and owns no name
// there (a run that failed before its first unit still claimed one).
func (r Removal) Empty() bool { return len(r.ids) == 0 && !r.imported && !r.named }

// Models are the models with units in the data folder or imported into it, sorted.
func Models(data string) ([]string, error) {
	runs, err := ModelRuns(data)
	if err != nil {
		return nil, err
	}
	out := slices.Collect(maps.Keys(runs))
	for m := range ImportedModels(data) {
		if _, ok := runs[m]; !ok {
			out = append(out, m)
		}
	}
	slices.Sort(out)
	return out, nil
}

// PlanForget lists what forgetting model would remove, removing nothing.
func PlanForget(data, model string) (Removal, error) {
	r := Removal{Model: model, Units: map[string]int{}, ids: map[string][]string{}}
	ms, err := ReadManifests(data)
	if err != nil {
		return r, err
	}
	for _, m := range ms {
		if m.Model != model {
			continue
		}
		r.Units[m.Stage]++
		r.Parts = append(r.Parts, m.Files...)
		r.Owned = append(r.Owned, m.Owned...)
		r.ids[m.Stage] = append(r.ids[m.Stage], m.Unit)
	}
	im, err := importedModel(data, model)
	if err != nil {
		return r, err
	}
	if im != nil {
		r.Units["imported"] = len(im.Parts)
		r.Parts = append(r.Parts, im.Parts...)
		r.Owned = append(r.Owned, im.Files...)
		r.imported = true
	}
	names, err := readModelNames(data)
	if err != nil {
		return r, err
	}
	_, r.named = names[model]
	slices.Sort(r.Parts)
	slices.Sort(r.Owned)
	r.Owned = slices.Compact(r.Owned) // a model's compile units own the sample folders its generate units wrote
	return r, nil
}

// Forget removes what r lists: the parts and owned files first, then the
// plan entries and manifests, so an interrupted forget leaves units that a
// run finds changed (stale) and recomputes, never rows without a manifest.
// The caller holds the stages' write locks.
func Forget(data string, r Removal) error {
	wh := filepath.Join(data, "warehouse")
	for _, f := range r.Parts {
		if err := removeLocal(wh, f); err != nil {
			return err
		}
	}
	for _, f := range r.Owned {
		if err := removeLocal(data, f); err != nil {
			return err
		}
	}
	if r.imported {
		if err := dropImported(data, r.Model); err != nil {
			return err
		}
	}
	for stage, ids := range r.ids {
		if err := dropPlanned(data, stage, ids); err != nil {
			return err
		}
		for _, id := range ids {
			err := os.Remove(filepath.Join(data, "state", stage, manifestName(id)))
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
	}
	return releaseModelName(data, r.Model)
}

// removeLocal removes rel below root; a manifest is outside data, and a
// path in it that would leave root is refused, not followed.
func removeLocal(root, rel string) error {
	if !filepath.IsLocal(rel) {
		return fmt.Errorf("forget: %q is not a path below %s; not removed", rel, root)
	}
	if err := os.RemoveAll(filepath.Join(root, rel)); err != nil {
		return fmt.Errorf("forget: %w", err)
	}
	return nil
}

// dropPlanned removes units from the stage's last plan, so the next run
// does not count them as units that ought to exist.
func dropPlanned(data, stage string, ids []string) error {
	l := flock.New(filepath.Join(data, LockDir, stage+".plan.lock"), flock.SetPermissions(0o644))
	if err := os.MkdirAll(filepath.Dir(l.Path()), 0o755); err != nil {
		return err
	}
	if err := l.Lock(); err != nil {
		return err
	}
	defer l.Unlock()
	p, err := readPlan(data, stage)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, id := range ids {
		delete(p.Units, id)
	}
	return writeJSON(planPath(data, stage), p)
}

func importedModel(data, model string) (*ImportedModel, error) {
	rels, err := ReadImported(data)
	if err != nil {
		return nil, err
	}
	if i, j := findImported(rels, model); i >= 0 {
		return &rels[i].Models[j], nil
	}
	return nil, nil
}

// ModelRuns says, per model with units in the data folder, which runs wrote
// them (run ids, sorted) and how many units it has.
func ModelRuns(data string) (map[string]ModelContribution, error) {
	ms, err := ReadManifests(data)
	if err != nil {
		return nil, err
	}
	out := map[string]ModelContribution{}
	for _, m := range ms {
		if m.Model == "" {
			continue
		}
		c := out[m.Model]
		c.Units++
		if m.Run != "" && !slices.Contains(c.Runs, m.Run) {
			c.Runs = append(c.Runs, m.Run)
		}
		out[m.Model] = c
	}
	for _, c := range out {
		slices.Sort(c.Runs)
	}
	return out, nil
}

// ModelContribution is what the runs left of one model.
type ModelContribution struct {
	Units int
	Runs  []string
}
