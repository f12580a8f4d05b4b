package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/solbehave/solbehave/internal/chain"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/etherscan"
	"github.com/solbehave/solbehave/internal/projection"
	"github.com/solbehave/solbehave/internal/solc"
)

// Hardhat modes.
const (
	HardhatAuto = "auto" // install and use Hardhat; skip it, with a note, if it cannot be installed
	HardhatOn   = "on"   // a Hardhat that cannot be installed or run is an error
	HardhatOff  = "off"  // leave Hardhat out
)

// Config is one bench run.
type Config struct {
	Corpus    string   // Etherscan-record corpus (../shared/corpus/mainnet, else the demo corpus)
	Data      string   // the report goes to <Data>/bench/latest.json
	Cache     string   // Hardhat goes to <Cache>/hardhat; "" = $SOLBEHAVE_CACHE, else ~/.cache/solbehave
	Mode      string   // "full" or "smoke", recorded in the report
	Command   string   // the command line, recorded with every figure
	Contracts int      // first n corpus contracts (after Only); 0 = all
	Only      []string // contract names or ids to keep; nil = every contract
	Txs       int      // recorded transactions replayed per contract
	Runs      int      // runs per measurement; figures are medians
	Samples   int      // k: mutant samples per contract for O2 and O3 end to end
	// SampleCompiles is how many of the k samples are really generated and
	// compiled (0 = all k); the others reuse those in turn, and end to end
	// then counts the time of k samples at the measured mean.
	SampleCompiles int
	// SpawnCompiles is how many times each original is compiled in a fresh
	// Node process (the baseline), and as many times on the persistent worker.
	SpawnCompiles int
	// O3Budget is T, the successful calls Algorithm 1 collects per contract
	// (0 = the paper's 1,000).
	O3Budget int
	// FuzzCalls is the O1 budget per function and FuzzFunctions the number
	// of functions fuzzed per contract.
	FuzzCalls, FuzzFunctions int
	Hardhat                  string        // HardhatAuto, HardhatOn or HardhatOff
	InstallTimeout           time.Duration // for npm install of Hardhat
	HardhatTimeout           time.Duration // per contract (all its runs)
	Curve                    []int         // contract counts the curve reports; nil = every 10 and all
	Log                      io.Writer     // progress lines; nil = discard
	// Projection is the cost run at the paper's parameters behind the
	// projected CPU-hours of the paper's evaluation.
	Projection ProjectionConfig
}

// Defaults is the full bench: 1,000 transactions, 3 runs, k = 10.
func Defaults() Config {
	return Config{Mode: "full", Txs: 1000, Runs: 3, Samples: 10, SpawnCompiles: 3, FuzzCalls: 2000, FuzzFunctions: 3,
		Hardhat: HardhatAuto, InstallTimeout: 10 * time.Minute, HardhatTimeout: 10 * time.Minute,
		Projection: ProjectionConfig{Samples: 10, VulnSamples: 1, Cores: []int{2, 16, 64}}}
}

// Smoke is the small bench `make test` runs: two contracts, a few
// transactions, two runs, k = 2.
func Smoke() Config {
	return Config{Mode: "smoke", Contracts: 2, Txs: 20, Runs: 2, Samples: 2, SpawnCompiles: 1, O3Budget: 20, FuzzCalls: 100, FuzzFunctions: 1,
		Hardhat: HardhatAuto, InstallTimeout: 4 * time.Minute, HardhatTimeout: 3 * time.Minute,
		Projection: ProjectionConfig{Samples: 2, VulnSamples: 1, Cores: []int{2, 16},
			Args: []string{"--o1-calls", "200", "--o2-budget", "100", "--o3-budget", "30", "--vuln-generations", "2", "--vuln-population", "4"}}}
}

func (c Config) validate() error {
	switch {
	case c.Corpus == "" || c.Data == "":
		return errors.New("bench: corpus and data folders are required")
	case c.Txs <= 0 || c.Runs <= 0 || c.Samples <= 0 || c.SpawnCompiles <= 0 || c.SampleCompiles < 0 || c.O3Budget < 0 || c.Contracts < 0 || c.FuzzCalls < 0 || c.FuzzFunctions < 0:
		return fmt.Errorf("bench: txs, runs, samples and spawn compiles must be positive, contracts and fuzz budgets not negative (got %+v)", c)
	case c.Projection.Samples < 0 || c.Projection.VulnSamples < 0 || c.Projection.Only && c.Projection.Samples == 0:
		return fmt.Errorf("bench: projection samples must not be negative, and --projection-only needs them (got %+v)", c.Projection)
	case c.Hardhat != HardhatAuto && c.Hardhat != HardhatOn && c.Hardhat != HardhatOff:
		return fmt.Errorf("bench: hardhat mode %q: want auto, on or off", c.Hardhat)
	}
	return nil
}

// ReportPath is where a run over data writes its report.
func ReportPath(data string) string { return filepath.Join(data, "bench", "latest.json") }

// bencher holds what one run shares across contracts.
type bencher struct {
	cfg        Config
	log        io.Writer
	client     *etherscan.Client
	warm       *solc.Manager // persistent workers, one at a time: per-core figures
	spawn      *solc.Manager // one Node process per compile: the baseline
	hardhat    *Hardhat
	notes      []string
	start      time.Time
	loadStart  string                 // /proc/loadavg when the run began
	projection *projection.Projection // nil until the cost run is done
	previous   *Report                // latest.json as the run found it (nil: none)
}

// Run measures every engine on the corpus and returns the report (also
// written to ReportPath(cfg.Data)).
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	b := &bencher{cfg: cfg, log: cfg.Log, start: time.Now(), loadStart: loadAverage()}
	if b.log == nil {
		b.log = io.Discard
	}
	b.previous, _ = ReadReport(ReportPath(cfg.Data))
	entries, err := b.open()
	if err != nil {
		return nil, err
	}
	defer b.warm.Close()
	defer b.spawn.Close()
	var done []*contractRun
	if !cfg.Projection.Only {
		if done, err = b.measureEngines(ctx, entries); err != nil {
			return nil, err
		}
	}
	if cfg.Projection.Samples > 0 {
		if err := b.runProjection(ctx, entries); err != nil {
			return nil, err
		}
	}
	rep := b.report(done, len(entries))
	return rep, rep.Write(ReportPath(cfg.Data))
}

// measureEngines runs every engine measurement on each contract, writing the
// report after each (an interrupted run leaves its figures so far).
func (b *bencher) measureEngines(ctx context.Context, entries []etherscan.Entry) ([]*contractRun, error) {
	b.setUpHardhat(ctx)
	var done []*contractRun
	for i, e := range entries {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		cr := b.measure(ctx, e)
		cr.Mem = sampleMemory()
		cr.Wall = time.Since(b.start)
		done = append(done, cr)
		fmt.Fprintf(b.log, "bench: [%d/%d] %s\n", i+1, len(entries), cr.summary())
		if err := b.report(done, len(entries)).Write(ReportPath(b.cfg.Data)); err != nil {
			return nil, err
		}
	}
	return done, nil
}

// runProjection measures the unit costs and projects the paper's evaluation.
func (b *bencher) runProjection(ctx context.Context, entries []etherscan.Entry) error {
	run, err := b.measureCosts(ctx, entries)
	defer run.Close()
	if err != nil {
		return err
	}
	if b.projection, err = run.project(ctx, b.cfg.Projection.Cores, TemporalOverheadMS(b.previous)); err != nil {
		return fmt.Errorf("bench: projecting from the cost run: %w", err)
	}
	return nil
}

// open lists the corpus and starts the compiler managers.
func (b *bencher) open() ([]etherscan.Entry, error) {
	entries, err := etherscan.ListCorpus(b.cfg.Corpus)
	if err != nil {
		return nil, err
	}
	if len(entries) == 0 {
		return nil, fmt.Errorf("bench: corpus %s holds no contracts", b.cfg.Corpus)
	}
	if len(b.cfg.Only) > 0 {
		entries = only(entries, b.cfg.Only)
		if len(entries) == 0 {
			return nil, fmt.Errorf("bench: corpus %s holds none of %v", b.cfg.Corpus, b.cfg.Only)
		}
	}
	if n := b.cfg.Contracts; n > 0 && n < len(entries) {
		entries = entries[:n]
	}
	if b.client, err = etherscan.NewRecorded(b.cfg.Corpus); err != nil {
		return nil, err
	}
	b.warm = solc.NewManager(solc.Options{MaxWorkers: 1})
	b.spawn = solc.NewManager(solc.Options{MaxWorkers: 1, Spawn: true})
	return entries, nil
}

// only keeps the entries named (by contract name or folder id), in corpus order.
func only(entries []etherscan.Entry, names []string) []etherscan.Entry {
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	var out []etherscan.Entry
	for _, e := range entries {
		if want[e.Name] || want[e.ID] {
			out = append(out, e)
		}
	}
	return out
}

func (b *bencher) cacheDir() string {
	if b.cfg.Cache != "" {
		return b.cfg.Cache
	}
	if d := os.Getenv("SOLBEHAVE_CACHE"); d != "" {
		return d
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "solbehave")
	}
	return filepath.Join(os.TempDir(), "solbehave-cache")
}

// setUpHardhat installs Hardhat (once per cache) unless it is off; in auto
// mode a failure becomes a note and the run goes on without it.
func (b *bencher) setUpHardhat(ctx context.Context) {
	if b.cfg.Hardhat == HardhatOff {
		b.note("hardhat: left out (--hardhat off)")
		return
	}
	start := time.Now()
	hh, err := InstallHardhat(ctx, b.cacheDir(), b.cfg.InstallTimeout)
	if err != nil {
		b.note("hardhat: not installable, left out: " + err.Error())
		return
	}
	fmt.Fprintf(b.log, "bench: hardhat %s ready in %s (%s)\n", hh.Version, time.Since(start).Round(time.Millisecond), hh.Dir)
	b.hardhat = hh
}

func (b *bencher) note(s string) {
	b.notes = append(b.notes, s)
	fmt.Fprintln(b.log, "bench: note:", s)
}

// measure runs every measurement on one contract. A step that fails is
// recorded on the contract and the remaining steps that do not need it run.
func (b *bencher) measure(ctx context.Context, e etherscan.Entry) *contractRun {
	cr := &contractRun{ID: e.ID, Name: e.Name}
	rec, err := deploy.Load(b.client, e, b.cfg.Txs)
	if err != nil {
		cr.Skip = "load: " + err.Error()
		return cr
	}
	cr.Compiler = rec.Source.CompilerVersion
	start := time.Now()
	out, err := b.warm.Compile(ctx, rec.CompileInput(nil))
	cr.CompileFirst = time.Since(start)
	if err != nil {
		cr.Skip = "compile: " + err.Error()
		return cr
	}
	target, err := rec.Target(out)
	if err != nil {
		cr.Skip = "compile: " + err.Error()
		return cr
	}
	d, err := deploy.Deploy(rec, out, target, nil, chain.Options{})
	if err != nil {
		cr.Skip = "deploy: " + err.Error()
		return cr
	}
	if len(rec.Txs) == 0 {
		cr.Skip = "no transactions after the creation"
		return cr
	}
	cr.Txs = len(rec.Txs)
	cr.Hardfork = hardhatFork(d.Block)
	cr.LastHardfork = hardforkAt(rec.Txs[len(rec.Txs)-1].Block)
	cr.Recorded = recordedStatuses(rec.Txs)
	for _, tx := range rec.Txs {
		cr.Hashes = append(cr.Hashes, tx.Hash)
		cr.Blocks = append(cr.Blocks, tx.Block)
	}
	msgs := messages(rec.Txs, d.Address)
	b.replayGo(ctx, cr, rec, d, msgs)
	b.replayHardhat(ctx, cr, rec, d, msgs)
	rebuilt := b.compileWarm(ctx, cr, rec)
	b.compileSpawned(ctx, cr, rec)
	samples := b.mutantSamples(ctx, cr, rec, out)
	b.oraclesEndToEnd(ctx, cr, rec, out, samples)
	b.o1(ctx, cr, rec, d, rebuilt)
	runtime.GC() // nothing of this contract is needed any more; keep the memory curve honest
	return cr
}

func recordedStatuses(txs []deploy.Tx) []string {
	out := make([]string, len(txs))
	for i, tx := range txs {
		out[i] = statusFailed
		if tx.Succeeded {
			out[i] = statusSuccess
		}
	}
	return out
}

// replayGo times the Go engines, interleaved run by run (and in a rotating
// order) so that a busy machine slows them alike.
func (b *bencher) replayGo(ctx context.Context, cr *contractRun, rec *deploy.Record, d *deploy.Deployment, msgs []message) {
	floor, err := newBare(rec, d)
	if err != nil {
		cr.Skip = err.Error()
		return
	}
	covered := d.Chain.WithOptions(chain.Options{Coverage: true})
	engines := map[string]func() []string{
		engineBare: func() []string { return floor.replay(msgs) },
		engineOurs: func() []string {
			st, results := replayOurs(d, d.Chain, rec.Txs)
			if cr.OursResults == nil {
				cr.OursResults = results
			}
			return st
		},
		engineCoverage: func() []string { st, _ := replayOurs(d, covered, rec.Txs); return st },
		engineO2: func() []string {
			st, err := replayEngine(ctx, d, rec.Txs)
			if err != nil {
				cr.Skip = "o2 engine: " + err.Error()
			}
			return st
		},
	}
	order := []string{engineBare, engineOurs, engineO2, engineCoverage}
	for run := range b.cfg.Runs {
		for i := range order {
			e := order[(i+run)%len(order)]
			var st []string
			t := measure(func() { st = engines[e]() })
			if cr.Skip != "" {
				return
			}
			cr.record(e, st, t)
		}
	}
}

// replayHardhat replays the same messages on Hardhat in one Node process.
func (b *bencher) replayHardhat(ctx context.Context, cr *contractRun, rec *deploy.Record, d *deploy.Deployment, msgs []message) {
	if b.hardhat == nil || cr.Skip != "" {
		return
	}
	job, err := newHardhatJob(rec, d, msgs, b.cfg.Runs)
	if err != nil {
		cr.HardhatErr = err.Error()
		return
	}
	res, err := b.hardhat.replay(ctx, job, cr.Hardfork, b.cfg.HardhatTimeout)
	if res != nil {
		cr.HardhatStartup = time.Duration(res.StartupNS)
		cr.HardhatRSS = res.MaxRSS
	}
	if err != nil {
		cr.HardhatErr = err.Error()
		return
	}
	for _, run := range res.Runs {
		if run.Error != "" {
			cr.HardhatErr = run.Error
			return
		}
		cr.record(engineHardhat, run.Statuses, timing{Wall: time.Duration(run.ReplayNS), CPU: time.Duration(run.ReplayCPUUS) * time.Microsecond})
		if cr.HardhatGas == nil {
			cr.HardhatGas, cr.HardhatReasons = run.Gas, run.Reasons
		}
	}
}
