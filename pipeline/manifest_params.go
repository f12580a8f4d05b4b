package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/solbehave/solbehave/internal/config"
	"github.com/solbehave/solbehave/internal/inputfile"
)

// RunInfo is what a unit's manifest records of the invocation that made it:
// the run's id (a row of the runs dataset) and, per stage, the fingerprinted
// parameters (config.Params), so `status --explain` and publish can name the
// parameter behind a stale unit or a mixed dataset.
type RunInfo struct {
	ID     string
	Params map[string]map[string]string // by stage
	// What the report says of the run that drew it (its runs row is written
	// when the run ends, after the page); empty where unknown.
	Started          time.Time
	Command, Version string
}

func (ri *RunInfo) id() string {
	if ri == nil {
		return ""
	}
	return ri.ID
}

func (ri *RunInfo) params(stage string) map[string]string {
	if ri == nil {
		return nil
	}
	return ri.Params[stage]
}

// Manifest is a unit's stored manifest, as publish reads it.
type Manifest = manifest

// ReadManifests reads every manifest under <data>/state, sorted by stage and unit.
func ReadManifests(data string) ([]Manifest, error) {
	files, err := inputfile.Glob(filepath.Join(data, "state"), filepath.Join("*", "*.json"))
	if err != nil {
		return nil, err
	}
	var out []Manifest
	for _, f := range files {
		m, err := readManifestFile(f)
		if errors.Is(err, fs.ErrNotExist) {
			continue // removed by a run meanwhile
		}
		if err != nil {
			return nil, fmt.Errorf("manifest %s: %w", f, err)
		}
		out = append(out, *m)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Stage != out[j].Stage {
			return out[i].Stage < out[j].Stage
		}
		return out[i].Unit < out[j].Unit
	})
	return out, nil
}

// Why says why a unit's stored outputs are not current ("" when they are):
// never run, a new stage version, a retriable failure, a missing or changed
// file, or a fingerprint that changed, naming the parameters that differ
// from the ones its manifest recorded when any do.
func (r *Runner) Why(s Stage, u Unit) string {
	m, err := r.readManifest(s.Name(), u.ID)
	switch {
	case err != nil:
		return "not run yet"
	case m.Version != s.Version():
		return fmt.Sprintf("stage version %s → %s", m.Version, s.Version())
	case m.Failed && m.Retriable:
		return "failed for a retriable reason"
	}
	if f := changedFile(r.Env.Warehouse.Root, m); f != "" {
		return "output missing or not the unit's (its digest differs): " + f
	}
	if m.Fingerprint == u.Fingerprint {
		return ""
	}
	now := r.Env.Run.params(s.Name())
	if m.Params == nil && now != nil {
		return "inputs changed (its manifest records no parameters)"
	}
	if diff := config.DiffParams(m.Params, now); len(diff) > 0 {
		return "parameters changed: " + strings.Join(diff, ", ")
	}
	return "inputs changed (corpus, upstream outputs or code)"
}

// Reasons groups units by why they are not current: reason → unit ids.
func (r *Runner) Reasons(s Stage, units []Unit) map[string][]string {
	out := map[string][]string{}
	for _, u := range units {
		if why := r.Why(s, u); why != "" {
			out[why] = append(out[why], u.ID)
		}
	}
	return out
}

// logStale says why a stage's units run again (new units aside).
func (r *Runner) logStale(s Stage, todo []Unit) {
	for why, ids := range r.Reasons(s, todo) {
		if why == "not run yet" {
			continue
		}
		if r.Force {
			why = "--force (" + why + ")"
		}
		r.Env.Log.Info("units run again", "stage", s.Name(), "units", len(ids), "why", why)
	}
}

// Plan of one stage for `run --dry-run`: its units and why each would run.
type DryRun struct {
	Stage   string
	Units   int
	Current int
	Run     map[string][]string // reason → unit ids
}

// DryRun plans the stage and says which units a run would run and why; it
// removes and writes nothing. Later stages plan over the outputs as they
// are now, before the earlier stages run.
func (r *Runner) DryRun(ctx context.Context, s Stage) (DryRun, error) {
	d := DryRun{Stage: s.Name(), Run: map[string][]string{}}
	units, err := r.Plan(ctx, s)
	if err != nil {
		return d, err
	}
	d.Units = len(units)
	for _, u := range units {
		why := r.Why(s, u)
		switch {
		case why == "" && !r.Force:
			d.Current++
		case why == "":
			d.Run["--force"] = append(d.Run["--force"], u.ID)
		default:
			d.Run[why] = append(d.Run[why], u.ID)
		}
	}
	return d, nil
}
