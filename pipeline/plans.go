package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/gofrs/flock"

	"github.com/solbehave/solbehave/internal/inputfile"
	"github.com/solbehave/solbehave/internal/warehouse"
)

// A stage's last plan is recorded in <data>/state/<stage>.plan.json: the
// fingerprint each of its units should have. A unit is stale when its
// manifest was made under another (or the plan no longer has the unit); the
// views leave stale units' outputs out (Selection), so a warehouse never
// mixes a run's rows with rows its changes made stale, and nothing needs
// deleting. A run records the plan of each stage it runs, then plans every
// stage again in order (Survey), so a stage it did not run whose inputs it
// changed is recorded stale too.

type plannedUnit struct {
	Contract    string `json:"contract"`
	Model       string `json:"model,omitempty"`
	Fingerprint string `json:"fingerprint"`
}

type planRecord struct {
	Stage   string                 `json:"stage"`
	Version string                 `json:"version"`
	Params  map[string]string      `json:"params,omitempty"` // the stage's parameters, as manifests record them
	Units   map[string]plannedUnit `json:"units"`
}

func planPath(data, stage string) string { return filepath.Join(data, "state", stage+".plan.json") }

// maxPlan bounds a plan record (about 200 bytes a unit).
const maxPlan = 256 << 20

func readPlan(data, stage string) (*planRecord, error) {
	b, err := inputfile.Read(planPath(data, stage), maxPlan)
	if err != nil {
		return nil, err
	}
	var p planRecord
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, fmt.Errorf("plan %s: %w", planPath(data, stage), err)
	}
	return &p, nil
}

// PlanParams are the parameters of a stage's last plan (nil when none is
// recorded): a run plans the stages it does not run with these, so a unit is
// stale because its inputs changed, not because this run's flags are other
// than the ones the stage last ran with.
func PlanParams(data, stage string) map[string]string {
	p, err := readPlan(data, stage)
	if err != nil {
		return nil
	}
	return p.Params
}

// recordPlan makes units the stage's last plan. The units this runner could
// not plan (another shard's, another setting's) keep their entries; shards
// of one split update the record one at a time.
func (r *Runner) recordPlan(s Stage, units []Unit) error {
	if err := os.MkdirAll(filepath.Join(r.Env.Data, LockDir), 0o755); err != nil {
		return err
	}
	l := flock.New(filepath.Join(r.Env.Data, LockDir, s.Name()+".plan.lock"), flock.SetPermissions(0o644))
	if err := l.Lock(); err != nil {
		return err
	}
	defer l.Unlock()
	rec := planRecord{Stage: s.Name(), Version: s.Version(), Params: r.Env.Run.params(s.Name()), Units: map[string]plannedUnit{}}
	if old, err := readPlan(r.Env.Data, s.Name()); err == nil && old.Version == s.Version() {
		for id, p := range old.Units {
			if !r.Shard.Owns(p.Contract) || !inScope(s, id) {
				rec.Units[id] = p
			}
		}
	}
	for _, u := range units {
		rec.Units[u.ID] = plannedUnit{Contract: u.Contract, Model: u.Model, Fingerprint: u.Fingerprint}
	}
	return writeJSON(planPath(r.Env.Data, s.Name()), rec)
}

// Currency sorts a data folder's manifests by their stages' last plans.
type Currency struct {
	Current []Manifest // made under the fingerprint the last plan gives the unit
	Stale   []Manifest // made under another: outdated inputs or parameters, or a unit no longer planned
}

// ReadCurrency reads every manifest under <data>/state and compares it with
// its stage's last plan. A stage with no recorded plan (a folder from before
// plans were recorded) counts its manifests current.
func ReadCurrency(data string) (Currency, error) {
	var c Currency
	ms, err := ReadManifests(data)
	if err != nil {
		return c, err
	}
	plans := map[string]*planRecord{}
	for _, m := range ms {
		p, seen := plans[m.Stage]
		if !seen {
			if p, err = readPlan(data, m.Stage); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return c, err
			}
			plans[m.Stage] = p
		}
		if p == nil || (p.Version == m.Version && p.Units[m.Unit].Fingerprint == m.Fingerprint) {
			c.Current = append(c.Current, m)
		} else {
			c.Stale = append(c.Stale, m)
		}
	}
	return c, nil
}

// staleFiles are the files stale manifests list, relative to the warehouse
// root.
func (c Currency) staleFiles() map[string]bool {
	out := map[string]bool{}
	for _, m := range c.Stale {
		for _, f := range m.Files {
			out[filepath.ToSlash(f)] = true
		}
	}
	return out
}

// Selection is the warehouse at root (<data>/warehouse) as the views read
// it: without the parts of stale units (see ReadCurrency). Parts no
// manifest lists (the run records, a folder written by other means) stay.
func Selection(root string) (*warehouse.Warehouse, error) {
	c, err := ReadCurrency(filepath.Dir(root))
	if err != nil {
		return warehouse.New(root), err
	}
	return c.Selection(root), nil
}

// Selection is the warehouse at root without the parts of c's stale units,
// for a caller that has read the currency already.
func (c Currency) Selection(root string) *warehouse.Warehouse {
	w := warehouse.New(root)
	if len(c.Stale) == 0 {
		return w
	}
	stale := c.staleFiles()
	return w.Filtered(func(path string) bool {
		rel, err := filepath.Rel(root, path)
		return err != nil || !stale[filepath.ToSlash(rel)]
	})
}

// fileDigests are the SHA-256 of a unit's files (relative to root).
func fileDigests(root string, files []string) (map[string]string, error) {
	out := make(map[string]string, len(files))
	for _, f := range files {
		d, err := inputfile.Digest(filepath.Join(root, f), inputfile.Whole)
		if err != nil {
			return nil, err
		}
		out[f] = d
	}
	return out, nil
}

// changedFile is the first of a manifest's files that is missing or is not
// the file the unit wrote (its digest differs); "" when none is.
func changedFile(root string, m *manifest) string {
	for _, f := range m.Files {
		path := filepath.Join(root, f)
		want, ok := m.SHA256[f]
		if !ok { // a manifest from before digests were recorded: the file must exist
			if _, err := os.Stat(path); err != nil {
				return f
			}
			continue
		}
		if got, err := inputfile.Digest(path, inputfile.Whole); err != nil || got != want {
			return f
		}
	}
	return ""
}

// currentFor says whether the unit m records is current for a plan giving
// it fingerprint fp under stage version: same fingerprint and version, and
// every file it wrote still the one it wrote.
func (m *manifest) currentFor(fp, version, root string) bool {
	return m.Fingerprint == fp && m.Version == version && changedFile(root, m) == ""
}

// StageSurvey is one stage of a Survey: its plan over the outputs as they
// are, with the stale upstream outputs hidden.
type StageSurvey struct {
	Stage Stage
	Units []Unit
	Err   error // the stage could not plan
}

// Survey plans the stages in pipeline order and runs nothing. Each stage
// plans with the outputs of the earlier stages' units that are not current
// hidden (stale rows upstream make the units that read them stale too).
// replan says which stages plan again; the others (and a stage that cannot
// plan, whose Err says why) stand by their last recorded plan. With record,
// each new plan becomes its stage's last plan.
func (r *Runner) Survey(ctx context.Context, stages []Stage, replan func(Stage) bool, record bool) ([]StageSurvey, error) {
	hidden := map[string]bool{}
	env := *r.Env
	env.Warehouse = r.Env.Warehouse.Filtered(func(path string) bool { return !hidden[path] })
	sr := *r
	sr.Env = &env
	var out []StageSurvey
	for _, s := range stages {
		var units []Unit
		var err error
		planned := replan(s)
		if planned {
			units, err = sr.Plan(ctx, s)
		}
		if !planned || err != nil {
			if units, planned = sr.lastPlan(s); !planned {
				out = append(out, StageSurvey{Stage: s, Err: err})
				continue // nothing known: every output stays
			}
		} else if record {
			if err := sr.recordPlan(s, units); err != nil {
				return out, fmt.Errorf("%s: recording the plan: %w", s.Name(), err)
			}
		}
		out = append(out, StageSurvey{Stage: s, Units: units, Err: err})
		if err := sr.hideStale(s, units, hidden); err != nil {
			return out, err
		}
	}
	return out, nil
}

// lastPlan is the stage's last recorded plan as units (this shard's), and
// whether one is recorded for the stage's current version.
func (r *Runner) lastPlan(s Stage) ([]Unit, bool) {
	p, err := readPlan(r.Env.Data, s.Name())
	if err != nil || p.Version != s.Version() {
		return nil, false
	}
	var units []Unit
	for id, u := range p.Units {
		units = append(units, Unit{ID: id, Contract: u.Contract, Model: u.Model, Fingerprint: u.Fingerprint})
	}
	sort.Slice(units, func(i, j int) bool { return units[i].ID < units[j].ID })
	return r.Shard.Filter(units), true
}

// hideStale adds to hidden the files of the stage's manifests (this
// shard's, this setting's) that are not current for its plan.
func (r *Runner) hideStale(s Stage, units []Unit, hidden map[string]bool) error {
	fps := map[string]string{}
	for _, u := range units {
		fps[manifestName(u.ID)] = u.Fingerprint
	}
	return r.eachScopedManifest(s, nil, func(path string, m *manifest) {
		if m == nil {
			return
		}
		if fp, ok := fps[filepath.Base(path)]; ok && m.currentFor(fp, s.Version(), r.Env.Warehouse.Root) {
			return
		}
		for _, f := range m.Files {
			hidden[filepath.Join(r.Env.Warehouse.Root, f)] = true
		}
	})
}
