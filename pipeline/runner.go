package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/solbehave/solbehave/internal/atomicfile"
	"github.com/solbehave/solbehave/internal/failure"
	"github.com/solbehave/solbehave/internal/redact"
	"github.com/solbehave/solbehave/internal/walltime"
	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/schemas"
)

// Runner runs stages unit by unit.
type Runner struct {
	Env      *Env
	Force    bool  // recompute units whose fingerprint is current
	Progress bool  // draw a progress bar (on a terminal)
	Shard    Shard // process only this shard's units (zero value: all)

	// writePart writes one dataset part; tests replace it to inject write
	// failures (a full disk) without filling one.
	writePart func(w datasetWrite, path string) error

	importedModels map[string]string // read once (see imported)
}

// ErrStorage marks a unit whose outputs could not be written: the stage stops
// early (the remaining units would be computed only to be dropped).
var ErrStorage = errors.New("storage")

// Counters say what a stage run did with its units.
type Counters struct {
	Stage                       string
	Units, Skipped, Ran, Failed int
	KeptFailed                  int // skipped units whose stored output is an error row of an earlier run
	Elapsed                     time.Duration
}

// manifest is written after a unit's outputs, so its presence means they are complete.
type manifest struct {
	Unit        string            `json:"unit"`
	Contract    string            `json:"contract"`
	Model       string            `json:"model,omitempty"` // the model whose rows it wrote (Unit.Model)
	Stage       string            `json:"stage"`
	Version     string            `json:"version"`
	Fingerprint string            `json:"fingerprint"`
	Files       []string          `json:"files"`           // relative to the warehouse root
	Owned       []string          `json:"owned,omitempty"` // the unit's files outside the warehouse (Unit.Files), relative to the data folder
	Failed      bool              `json:"failed,omitempty"`
	Retriable   bool              `json:"retriable,omitempty"`
	Run         string            `json:"run,omitempty"`    // the run that wrote it (see manifest_params.go)
	Params      map[string]string `json:"params,omitempty"` // the fingerprinted parameters it was made with
	SHA256      map[string]string `json:"sha256,omitempty"` // each file's digest: another file there is not the unit's output
	Cost
}

// Cost is what running a unit took (see Engines.Meter): wall and CPU
// milliseconds (this process and its solc workers; the unit's share when
// units ran side by side), its share of the solc workers started and of
// their youth (solc.Manager.Youth), and how many jobs the run had.
type Cost struct {
	WallMS     int64   `json:"wall_ms,omitempty"`
	CPUMS      int64   `json:"cpu_ms,omitempty"`
	SolcStarts float64 `json:"solc_starts,omitempty"`
	SolcYouth  float64 `json:"solc_youth,omitempty"`
	Jobs       int     `json:"jobs,omitempty"`
}

// Run plans the stage, runs every unit whose fingerprint changed, and
// removes the outputs of units that no longer exist.
func (r *Runner) Run(ctx context.Context, s Stage) (Counters, error) {
	start := time.Now()
	todo, c, err := r.Prepare(ctx, s)
	if err != nil {
		return c, err
	}
	prog := NewProgress(r.Env, s.Name(), len(todo), r.Progress)
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	var mu sync.Mutex
	run := func(u Unit) {
		failed, err := r.RunUnit(ctx, s, u, false)
		if errors.Is(err, ErrStorage) {
			stop(fmt.Errorf("%s: unit %s: %w", s.Name(), u.ID, err))
		}
		if ctx.Err() != nil && err != nil {
			return // stopped: nothing was stored, the next run does it
		}
		failed = failed || err != nil
		mu.Lock()
		c.Ran++
		if failed {
			c.Failed++
		}
		mu.Unlock()
		prog.Step(u.ID, failed)
	}
	q := newQueue(todo)
	var g errgroup.Group
	for range max(1, r.Env.Jobs) {
		g.Go(func() error {
			for affinity := ""; ctx.Err() == nil; {
				u, ok := q.next(affinity)
				if !ok {
					break
				}
				affinity = u.Affinity
				run(u)
			}
			return nil
		})
	}
	g.Wait()
	prog.Done()
	c.Elapsed = time.Since(start)
	return c, context.Cause(ctx)
}

// Plan plans the stage and keeps this shard's units; it runs and removes nothing.
func (r *Runner) Plan(ctx context.Context, s Stage) ([]Unit, error) {
	units, err := s.Plan(ctx, r.Env)
	if err == nil {
		err = ctx.Err() // a stage whose planning does not look at ctx still ends here
	}
	if err != nil {
		return nil, fmt.Errorf("%s: plan: %w", s.Name(), err)
	}
	return r.Shard.Filter(units), nil
}

// Prepare is what a run does before running units, whichever engine runs
// them: it plans the stage, removes the outputs of units the plan no longer
// has, and returns the units whose outputs are not current (all with Force),
// with the counters filled so far.
func (r *Runner) Prepare(ctx context.Context, s Stage) ([]Unit, Counters, error) {
	c := Counters{Stage: s.Name()}
	units, err := r.Plan(ctx, s)
	if err != nil {
		return nil, c, err
	}
	c.Units = len(units)
	if err := checkUnique(s.Name(), r.Env.Warehouse, units); err != nil {
		return nil, c, err
	}
	if err := r.removeOrphans(s, units); err != nil {
		return nil, c, err
	}
	if err := r.recordPlan(s, units); err != nil {
		return nil, c, fmt.Errorf("%s: recording the plan: %w", s.Name(), err)
	}
	var todo []Unit
	for _, u := range units {
		if current, failed := r.Stored(s, u); current && !r.Force {
			c.Skipped++
			if failed {
				c.KeptFailed++
			}
			continue
		}
		todo = append(todo, u)
	}
	r.logStale(s, todo)
	sort.SliceStable(todo, func(i, j int) bool { return todo[i].Affinity < todo[j].Affinity })
	return todo, c, nil
}

// Current tells whether a unit's stored outputs match its fingerprint.
// A unit that failed for a retriable reason is never current.
func (r *Runner) Current(s Stage, u Unit) bool {
	current, _ := r.Stored(s, u)
	return current
}

// Stored tells whether a unit's stored outputs are current, and whether what
// is stored is its error row.
func (r *Runner) Stored(s Stage, u Unit) (current, failed bool) {
	if r.imported(u) {
		return true, false
	}
	m, err := r.readManifest(s.Name(), u.ID)
	if err != nil || (m.Failed && m.Retriable) || !m.currentFor(u.Fingerprint, s.Version(), r.Env.Warehouse.Root) {
		return false, false
	}
	return true, m.Failed
}

// RunUnit runs one unit and stores its outputs, or its error row; failed
// says that an error row was stored. Every engine runs units through here, so
// a unit's outputs and manifest are written one way only, and running a unit
// twice (a retry, a duplicate) rewrites the same files atomically.
//
// With holdRetriable, a retriable failure is returned unstored (err is the
// unit's error), so an engine with retries of its own (Temporal) can run the
// unit again before recording it. A failure to store is returned as a
// retriable "storage" error; nothing is stored then.
func (r *Runner) RunUnit(ctx context.Context, s Stage, u Unit, holdRetriable bool) (failed bool, err error) {
	out, cost, uerr := r.meteredRun(ctx, s, u)
	if uerr != nil && ctx.Err() != nil {
		return false, uerr // stopped, not failed: stored as nothing, so the next run does it
	}
	m := manifest{Unit: u.ID, Contract: u.Contract, Model: u.Model, Owned: u.Files, Stage: s.Name(), Version: s.Version(), Fingerprint: u.Fingerprint,
		Run: r.Env.Run.id(), Params: r.Env.Run.params(s.Name()), Cost: cost}
	if uerr != nil {
		class, retriable := failure.Of(uerr)
		if retriable && holdRetriable {
			return false, uerr
		}
		if walltime.Is(uerr) {
			out = nil // rows of a unit cut by the clock would say what the machine did, not the input
		}
		r.Env.Log.Warn("unit failed", "stage", s.Name(), "unit", u.ID, "class", class, "err", uerr)
		if out == nil {
			out = &Output{}
		}
		Add(out, schemas.Errors, []schemas.ErrorRow{{Stage: s.Name(), Unit: u.ID, ContractID: u.Contract,
			Class: class.String(), Message: uerr.Error(), Retriable: retriable}})
		m.Failed, m.Retriable = true, retriable
	}
	if out == nil {
		out = &Output{}
	}
	if err := r.store(s, u, out, m); err != nil {
		r.Env.Log.Error("writing unit outputs", "stage", s.Name(), "unit", u.ID, "err", err)
		return false, failure.New(failure.Storage, true, fmt.Errorf("%w: %w", ErrStorage, err))
	}
	return m.Failed, nil
}

// store writes a unit's parts, then its manifest, then removes the parts of
// its previous run that this one did not rewrite.
func (r *Runner) store(s Stage, u Unit, out *Output, m manifest) error {
	files, err := r.write(s, u, out)
	if err != nil {
		return err
	}
	old, _ := r.readManifest(s.Name(), u.ID)
	m.Files = files
	if m.SHA256, err = fileDigests(r.Env.Warehouse.Root, files); err != nil {
		return err
	}
	if err := r.writeManifest(m); err != nil {
		return err
	}
	r.removeStale(old, files)
	return nil
}

// imported says whether u is a unit of a model taken from a release: its
// rows are the release's, never recomputed (see ImportedRelease).
func (r *Runner) imported(u Unit) bool {
	if u.Model == "" {
		return false
	}
	if r.importedModels == nil { // a run imports before its runner exists, so one reading serves it
		r.importedModels = ImportedModels(r.Env.Data)
	}
	_, ok := r.importedModels[u.Model]
	return ok
}

// meteredRun runs the unit and says what it cost (nothing measured where
// the run has no engines).
func (r *Runner) meteredRun(ctx context.Context, s Stage, u Unit) (*Output, Cost, error) {
	if r.Env.Engines == nil {
		out, err := safeRun(ctx, s, r.Env, u)
		return out, Cost{}, err
	}
	meter := r.Env.Engines.Meter()
	span := meter.Start()
	out, err := safeRun(ctx, s, r.Env, u)
	used := meter.Stop(span)
	return out, Cost{WallMS: used.Wall.Milliseconds(), CPUMS: used.CPU.Milliseconds(),
		SolcStarts: math.Round(used.Counts[0]*1000) / 1000, SolcYouth: math.Round(used.Counts[1]*1000) / 1000, Jobs: max(1, r.Env.Jobs)}, err
}

func safeRun(ctx context.Context, s Stage, env *Env, u Unit) (out *Output, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = failure.New(failure.Panic, false, fmt.Errorf("panic: %v\n%s", p, debug.Stack()))
		}
	}()
	return s.Run(ctx, env, u)
}

// write stores each dataset part of a unit, returning paths relative to the warehouse.
func (r *Runner) write(s Stage, u Unit, out *Output) ([]string, error) {
	seen := map[string]int{}
	var files []string
	for _, w := range out.writes {
		path := partPath(r.Env.Warehouse, w.dataset, s.Name(), u, seen[w.dataset])
		seen[w.dataset]++
		write := r.writePart
		if write == nil {
			write = func(w datasetWrite, path string) error { return w.write(path) }
		}
		removeLeftovers(path)
		if err := write(w, path); err != nil {
			return nil, fmt.Errorf("%s: %w", w.dataset, err)
		}
		rel, _ := filepath.Rel(r.Env.Warehouse.Root, path)
		files = append(files, rel)
	}
	sort.Strings(files)
	return files, nil
}

// partPath is the file of a unit's n-th part of dataset (n > 0 when a unit
// writes a dataset more than once).
func partPath(w *warehouse.Warehouse, dataset, stage string, u Unit, n int) string {
	name := partName(stage, u)
	if n > 0 {
		name = fmt.Sprintf("%s-%d", name, n)
	}
	return w.Path(dataset, warehouse.ByContract(u.Contract), name)
}

// partName names a unit's file within its contract partition: the stage, and
// the part of the unit id that the contract does not already say.
func partName(stage string, u Unit) string {
	rest := strings.TrimPrefix(strings.TrimPrefix(u.ID, u.Contract), "/")
	if rest == "" {
		return stage
	}
	return stage + "-" + sanitize(rest)
}

// removeLeftovers removes the temporary files a killed write of path left
// (no glob of the views reads them, but a finished run leaves none): one
// writer per stage and one unit per part, so none is being written now.
func removeLeftovers(path string) {
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), atomicfile.TempPattern(filepath.Base(path))))
	for _, f := range left {
		os.Remove(f)
	}
}

func sanitize(s string) string {
	return strings.NewReplacer("/", "__", "\\", "_", "..", "_", ":", "_", " ", "_").Replace(s)
}

func (r *Runner) removeStale(old *manifest, keep []string) {
	if old == nil {
		return
	}
	kept := map[string]bool{}
	for _, f := range keep {
		kept[f] = true
	}
	for _, f := range old.Files {
		if !kept[f] {
			os.Remove(filepath.Join(r.Env.Warehouse.Root, f))
		}
	}
}

// removeOrphans deletes outputs of units the plan no longer has (a contract
// removed from the corpus, a sample count lowered), so the warehouse equals
// a from-scratch run.
func (r *Runner) removeOrphans(s Stage, units []Unit) error {
	planned := map[string]bool{}
	for _, u := range units {
		planned[manifestName(u.ID)] = true
	}
	isPlanned := func(name string) bool { return planned[name] }
	return r.eachScopedManifest(s, isPlanned, func(path string, m *manifest) {
		r.removeStale(m, nil)
		os.Remove(path)
	})
}

// eachScopedManifest calls f with the path of each manifest file of stage s
// that skip (when not nil) does not name, and the manifest it holds (nil
// when it does not read); those of another shard or setting are left out,
// not this plan's to judge.
func (r *Runner) eachScopedManifest(s Stage, skip func(name string) bool, f func(path string, m *manifest)) error {
	dir := filepath.Join(r.stateDir(), s.Name())
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") || (skip != nil && skip(e.Name())) {
			continue
		}
		path := filepath.Join(dir, e.Name())
		m, err := readManifestFile(path)
		if err == nil && (!r.Shard.Owns(m.Contract) || !inScope(s, m.Unit)) {
			continue
		}
		f(path, m)
	}
	return nil
}

func inScope(s Stage, unitID string) bool {
	sc, ok := s.(Scoped)
	return !ok || sc.InScope(unitID)
}

func (r *Runner) stateDir() string { return filepath.Join(r.Env.Data, "state") }

func manifestName(unitID string) string { return sanitize(unitID) + ".json" }

func (r *Runner) readManifest(stage, unit string) (*manifest, error) {
	return readManifestFile(filepath.Join(r.stateDir(), stage, manifestName(unit)))
}

func readManifestFile(path string) (*manifest, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var m manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	return &m, nil
}

func (r *Runner) writeManifest(m manifest) error {
	path := filepath.Join(r.stateDir(), m.Stage, manifestName(m.Unit))
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(path, redact.Bytes(b), 0o644) // its parameters may hold an endpoint's URL
}

// Status counts a stage's units by the state of their stored outputs.
type Status struct {
	Stage                        string
	Done, Stale, Failed, Pending int
}

// Status compares each unit of a stage's plan (see Survey) with its
// manifest, running nothing.
func (r *Runner) Status(s Stage, units []Unit) Status {
	st := Status{Stage: s.Name()}
	for _, u := range units {
		m, err := r.readManifest(s.Name(), u.ID)
		switch {
		case r.imported(u):
			st.Done++
		case err != nil:
			st.Pending++
		case !r.Current(s, u):
			st.Stale++
		case m.Failed:
			st.Failed++
		default:
			st.Done++
		}
	}
	return st
}

// checkUnique refuses a plan in which two units would share a manifest, a
// part file or a file of their own (ids that differ only in characters the
// file names replace: `a+b` and `a_b`, `m/x` and `m_x`), since they would
// overwrite each other's outputs, and a unit whose file names would be too
// long to create. Each name comes from the function that makes the path.
func checkUnique(stage string, w *warehouse.Warehouse, units []Unit) error {
	byName := map[string]string{}
	for _, u := range units {
		part, _ := filepath.Rel(w.Root, partPath(w, "dataset", stage, u, 0))
		names := append([]string{filepath.Join("state", stage, manifestName(u.ID)), filepath.ToSlash(part)}, u.Files...)
		for _, name := range names {
			if other, ok := byName[name]; ok && other != u.ID {
				return fmt.Errorf("%s: plan: units %q and %q would share the file %s; rename one (a generator, extractor or corpus folder)", stage, other, u.ID, name)
			}
			byName[name] = u.ID
			if err := checkLength(name); err != nil {
				return fmt.Errorf("%s: plan: unit %q: %w", stage, u.ID, err)
			}
		}
	}
	return nil
}

// maxNameLen leaves room within a file system's 255-byte names for the
// temporary file of an atomic write (`.<name>.tmp-<digits>`) and a part's
// numbering.
const maxNameLen = 200

func checkLength(path string) error {
	for _, elem := range strings.Split(filepath.ToSlash(path), "/") {
		if len(elem) > maxNameLen {
			return fmt.Errorf("the file name %.60s… is %d bytes long, over %d; shorten the generator, extractor or corpus folder name",
				elem, len(elem), maxNameLen)
		}
	}
	return nil
}
