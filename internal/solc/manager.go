package solc

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
)

// Manager installs compilers on demand and runs compiles on a bounded pool
// of persistent Node workers (or, with Options.Spawn, one process each).
// It is safe for concurrent use.
type Manager struct {
	opts   Options
	inst   *installer
	pool   *pool
	closed atomic.Bool

	spawnMu sync.Mutex
	spawned map[*worker]bool // Spawn mode: processes running now, killed by Close

	total Tally // every compile's worker starts and youth, for cost accounting
}

// Started is how many worker processes the manager has started: each loads
// its compiler and warms it up, seconds of CPU that a warm worker saves.
func (m *Manager) Started() int64 {
	starts, _ := m.total.Figures()
	return int64(starts)
}

// Youth is how young the workers were that served the compiles so far: the
// sum, over every compile on a worker that had served n ≥ 1 compiles before,
// of 1/n (a worker's first compile is its start's, counted by Started). V8
// goes on optimising the compiler's hot code over a worker's first compiles,
// so they cost more than its later ones: the cost projection fits that
// warm-up as a term in youth and prices it per worker start.
func (m *Manager) Youth() float64 {
	_, youth := m.total.Figures()
	return youth
}

// served counts one compile on a worker that had served n compiles before,
// in the manager's sum and in the context's Tally.
func (m *Manager) served(ctx context.Context, n int) {
	if n <= 0 {
		return
	}
	m.count(ctx, 0, 1/float64(n))
}

// count adds worker starts and youth to the manager's totals and to the
// context's Tally.
func (m *Manager) count(ctx context.Context, starts int, youth float64) {
	m.total.add(starts, youth)
	tallyOf(ctx).add(starts, youth)
}

// NewManager returns a Manager; zero Options give the defaults.
func NewManager(opts Options) *Manager {
	if opts.CacheDir == "" {
		opts.CacheDir = defaultCacheDir()
	}
	if opts.MaxWorkers <= 0 {
		opts.MaxWorkers = 2
	}
	if opts.Node == "" {
		opts.Node = "node"
	}
	if opts.Npm == "" {
		opts.Npm = "npm"
	}
	if opts.StartupTimeout <= 0 {
		opts.StartupTimeout = DefaultStartupTimeout
	}
	return &Manager{
		opts:    opts,
		inst:    newInstaller(opts.CacheDir, opts.Npm, opts.Logf),
		pool:    newPool(opts.MaxWorkers),
		spawned: map[*worker]bool{},
	}
}

// Close stops every worker; compiles in flight fail with an error.
func (m *Manager) Close() error {
	if m.closed.Swap(true) {
		return nil
	}
	m.pool.close()
	m.spawnMu.Lock()
	for w := range m.spawned {
		w.kill()
	}
	m.spawnMu.Unlock()
	return nil
}

// Install makes sure the compiler for a requested version is in the cache
// (Compile does this itself; Install lets a caller warm the cache).
func (m *Manager) Install(ctx context.Context, requested string) (Release, error) {
	rel, err := ResolveRelease(requested)
	if err != nil {
		return Release{}, err
	}
	_, err = m.workerSpec(ctx, rel, false)
	return rel, err
}

// Compile compiles one job. Solc errors come back as *CompileError; version
// problems wrap ErrUnknownVersion; a dying worker gives ErrWorkerCrashed.
func (m *Manager) Compile(ctx context.Context, in Input) (*Output, error) {
	if m.closed.Load() {
		return nil, ErrClosed
	}
	job, err := prepare(in)
	if err != nil {
		return nil, err
	}
	rel, err := ResolveRelease(job.requested)
	if err != nil {
		return nil, err
	}
	rel = refineAncient(rel, job.sources)
	input, notes, err := job.standardInput(rel)
	if err != nil {
		return nil, err
	}
	raw, used, err := m.run(ctx, rel, input)
	if err != nil {
		return nil, err
	}
	out, err := parseOutput(raw, job.sources, used)
	if err != nil {
		return nil, err
	}
	out.CompilerRequested = job.requested
	out.CompilerUsed = used
	out.Release = rel
	out.Warnings = append(notes, out.Warnings...)
	return out, nil
}

func (m *Manager) workerSpec(ctx context.Context, rel Release, once bool) (workerSpec, error) {
	script, err := m.inst.workerScript()
	if err != nil {
		return workerSpec{}, err
	}
	wrapper, err := m.inst.wrapper(ctx)
	if err != nil {
		return workerSpec{}, err
	}
	soljson, err := m.inst.soljson(ctx, rel.Package)
	if err != nil {
		return workerSpec{}, err
	}
	return workerSpec{node: m.opts.Node, script: script, wrapper: wrapper, soljson: soljson, key: rel.Package, once: once, noLiftoff: m.opts.NoLiftoff, plainTable: m.opts.PlainTable, startup: m.opts.StartupTimeout}, nil
}

// run compiles input on a worker of rel and returns the raw output and the
// compiler's version().
func (m *Manager) run(ctx context.Context, rel Release, input []byte) ([]byte, string, error) {
	spec, err := m.workerSpec(ctx, rel, m.opts.Spawn) // installed first: a cached output answers only an installable compiler
	if err != nil {
		return nil, "", err
	}
	cache := outputCache(m.opts.OutputCache)
	if out, version, ok := cache.get(rel.Package, input); ok && checkVersion(version, rel) == nil {
		return out, version, nil
	}
	out, version, err := m.compileOnWorker(ctx, spec, rel, input)
	if err == nil {
		cache.put(rel.Package, input, out, version)
	}
	return out, version, err
}

// compileOnWorker compiles input on a worker of rel: a pooled one, or a
// fresh process with Options.Spawn.
func (m *Manager) compileOnWorker(ctx context.Context, spec workerSpec, rel Release, input []byte) ([]byte, string, error) {
	start := func(ctx context.Context) (*worker, error) {
		m.count(ctx, 1, 0)
		w, err := startWorker(ctx, spec)
		if err != nil {
			return nil, err
		}
		if err := checkVersion(w.version, rel); err != nil {
			w.kill()
			return nil, err
		}
		return w, nil
	}
	if m.opts.Spawn {
		return m.runSpawned(ctx, start, input)
	}
	w, err := m.pool.acquire(ctx, rel.Package, start)
	if err != nil {
		return nil, "", err
	}
	if err := checkVersion(w.version, rel); err != nil { // a reused worker, checked at start against another release
		m.pool.release(w, false)
		return nil, "", err
	}
	served := w.uses // the pool changes it only on release: ours until then
	out, err := w.compile(ctx, input)
	m.pool.release(w, err != nil)
	m.served(ctx, served)
	return out, w.version, err
}

// runSpawned is the baseline: a fresh process for one compile.
func (m *Manager) runSpawned(ctx context.Context, start func(context.Context) (*worker, error), input []byte) ([]byte, string, error) {
	w, err := start(ctx)
	if err != nil {
		return nil, "", err
	}
	m.spawnMu.Lock()
	m.spawned[w] = true
	m.spawnMu.Unlock()
	defer func() {
		w.kill()
		m.spawnMu.Lock()
		delete(m.spawned, w)
		m.spawnMu.Unlock()
	}()
	if m.closed.Load() {
		return nil, "", ErrClosed
	}
	out, err := w.compile(ctx, input)
	return out, w.version, err
}

// checkVersion insists the loaded soljson is the release asked for.
func checkVersion(reported string, rel Release) error {
	if reported == rel.Version || strings.HasPrefix(reported, rel.Version+"+") {
		return nil
	}
	return fmt.Errorf("%w: npm package %s reports %q, want %s", ErrVersionMismatch, rel.Package, reported, rel.Version)
}
