package verify

import (
	"context"
	"io"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/solbehave/solbehave/internal/chain"
	"github.com/solbehave/solbehave/internal/cpuclock"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/solc"
	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/pipeline"
)

// BenchmarkVerifyContract measures the verify stage's cost per contract on
// each demo contract: compile (persistent solc worker, warm), deploy, and
// replay its first 200 transactions.
func BenchmarkVerifyContract(b *testing.B) {
	corpus := filepath.Join("..", "..", "data", "corpus", "demo")
	c, err := deploy.OpenCorpus(corpus)
	if err != nil {
		b.Fatal(err)
	}
	data := b.TempDir()
	env := &pipeline.Env{Corpus: corpus, Data: data, Jobs: 1, Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Warehouse: warehouse.New(filepath.Join(data, "warehouse")), Engines: &pipeline.Engines{}}
	defer env.Engines.Close()
	s := New()
	for _, e := range c.Entries {
		rec, err := c.Load(e, s.Budget)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(e.Name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				v := &verdict{rec: rec}
				if err := s.verify(context.Background(), env, v); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(rec.Txs))*float64(b.N)/b.Elapsed().Seconds(), "tx/s")
		})
	}
}

// BenchmarkReplay200 isolates the replay: deploy once, then replay the first
// 200 transactions on a fork of the post-deployment state.
func BenchmarkReplay200(b *testing.B) {
	corpus := filepath.Join("..", "..", "data", "corpus", "demo")
	c, err := deploy.OpenCorpus(corpus)
	if err != nil {
		b.Fatal(err)
	}
	env := &pipeline.Env{Engines: &pipeline.Engines{}}
	defer env.Engines.Close()
	for _, e := range c.Entries {
		rec, _ := c.Load(e, 200)
		out, err := env.Engines.Solc().Compile(context.Background(), rec.CompileInput(nil))
		if err != nil {
			b.Fatal(err)
		}
		target, _ := rec.Target(out)
		d, err := deploy.Deploy(rec, out, target, nil, chain.Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(e.Name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				h := d.Chain.Fork()
				for _, tx := range rec.Txs {
					if _, err := d.Replay(h, tx); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(len(rec.Txs))*float64(b.N)/b.Elapsed().Seconds(), "tx/s")
		})
	}
}

// BenchmarkCompileTargets compiles every original of a corpus (the demo, or
// SOLBEHAVE_BENCH_CORPUS such as ../shared/corpus/mainnet) three ways on one
// warm worker per compiler, in turn: bytecode for every contract (as before
// Targets), for the deployed contract and libraries only (verify), and that
// without ASTs (a sample's compile). It reports the process tree's CPU per
// compile of each; the target's code must be the same all three ways.
func BenchmarkCompileTargets(b *testing.B) {
	c := benchCorpus(b)
	m := solc.NewManager(solc.Options{MaxWorkers: 1})
	defer m.Close()
	modes := []struct {
		name    string
		targets bool
		noASTs  bool
	}{{"all", false, false}, {"targets", true, false}, {"targets-no-asts", true, true}}
	cpu := make([]time.Duration, len(modes))
	n := 0
	for i := 0; i < b.N; i++ {
		for _, e := range c.Entries {
			rec, err := c.Load(e, 1)
			if err != nil {
				continue
			}
			if _, err := m.Compile(context.Background(), rec.CompileInput(nil)); err != nil { // start the worker
				continue
			}
			var want *solc.Contract
			for j, mode := range modes {
				in := rec.CompileInput(nil)
				if mode.targets {
					in.Targets = []string{rec.Name()}
				}
				in.NoASTs = mode.noASTs
				before := cpuclock.Tree()
				out, err := m.Compile(context.Background(), in)
				cpu[j] += cpuclock.Tree() - before
				if err != nil {
					b.Fatalf("%s (%s): %v", rec.Name(), mode.name, err)
				}
				c, err := rec.Target(out)
				if err != nil {
					b.Fatalf("%s (%s): %v", rec.Name(), mode.name, err)
				}
				if want == nil {
					want = c
				} else if c.Creation != want.Creation || c.Runtime != want.Runtime {
					b.Fatalf("%s: the target's code differs (%s)", rec.Name(), mode.name)
				}
			}
			n++
		}
	}
	for j, mode := range modes {
		b.ReportMetric(float64(cpu[j].Milliseconds())/float64(n), mode.name+"-cpu-ms/compile")
	}
}

// workerModes are the ways a solc worker can run that the benchmarks
// compare: the default (Liftoff first, table lookups memoised), V8's
// optimising WebAssembly compiler from a function's first call
// (solc.Options.NoLiftoff), and every table lookup through V8's own get
// (solc.Options.PlainTable, the memo's baseline).
var workerModes = []struct {
	name string
	opts solc.Options
}{
	{"default", solc.Options{MaxWorkers: 1}},
	{"no-liftoff", solc.Options{MaxWorkers: 1, NoLiftoff: true}},
	{"plain-table", solc.Options{MaxWorkers: 1, PlainTable: true}},
}

// BenchmarkWorkerTiering compares the solc workers' modes (workerModes),
// compiling each original of a corpus (the demo, or SOLBEHAVE_BENCH_CORPUS
// such as ../shared/corpus/mainnet) five times on a fresh worker, as a
// sample is compiled (target only, no ASTs): the first compile, worker
// start included, and the four after it. It reports the process tree's CPU
// per compile of each kind.
func BenchmarkWorkerTiering(b *testing.B) {
	c := benchCorpus(b)
	for _, mode := range workerModes {
		b.Run(mode.name, func(b *testing.B) {
			var first, warm time.Duration
			var starts, warms int
			for range b.N {
				for _, e := range c.Entries {
					rec, err := c.Load(e, 1)
					if err != nil {
						continue
					}
					in := rec.CompileInput(nil)
					in.Targets, in.NoASTs = []string{rec.Name()}, true
					m := solc.NewManager(mode.opts)
					for i := range 5 {
						before := cpuclock.Tree()
						_, err := m.Compile(context.Background(), in)
						spent := cpuclock.Tree() - before
						if err != nil {
							break // a source that does not compile (the mainnet corpus has some)
						}
						if i == 0 {
							first, starts = first+spent, starts+1
						} else {
							warm, warms = warm+spent, warms+1
						}
					}
					m.Close()
				}
			}
			b.ReportMetric(float64(first.Milliseconds())/float64(max(starts, 1)), "first-cpu-ms")
			b.ReportMetric(float64(warm.Milliseconds())/float64(max(warms, 1)), "warm-cpu-ms/compile")
		})
	}
}

// benchCorpus reads the corpus a compile benchmark runs on: the demo, or
// SOLBEHAVE_BENCH_CORPUS (a relative path is the repository root's, where
// the README's commands run: go test runs in the package's folder).
func benchCorpus(b *testing.B) *deploy.Corpus {
	corpus := filepath.Join("..", "..", "data", "corpus", "demo")
	if c := os.Getenv("SOLBEHAVE_BENCH_CORPUS"); c != "" {
		corpus = c
		if !filepath.IsAbs(c) {
			corpus = filepath.Join("..", "..", c)
		}
	}
	c, err := deploy.OpenCorpus(corpus)
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// BenchmarkWorkerWarmup measures how much of a warm unit's compile is its
// worker still warming up. verify keeps each compiler's worker while that
// compiler's candidates last; a cost run of tens of contracts gives a worker
// two or three of them, the paper's 8,360 candidates about 75. It compiles
// each compiler's originals of a corpus (as verify does: target's code,
// ASTs) on one fresh worker in name order, as a cost run does, then passes
// over them again; it reports the process tree's CPU per compile of the
// first pass's warm compiles (a worker's second and later: the units the
// projection fits) and of the same compiles in the last pass.
//
// It also checks the shape the projection gives the warm-up (a compile on a
// worker that served n before costs c/n more than on a long-warm one):
// c is fitted on the first two passes only, each source against itself
// (the second pass's compile of a source is the first's at a greater n),
// and the last pass is predicted from the first with it.
//
// It runs in each of workerModes: the last pass tells whether a long-warm
// worker (the evaluation's) compiles faster without Liftoff, and what the
// table-lookup memo saves it (plain-table against default).
func BenchmarkWorkerWarmup(b *testing.B) {
	for _, mode := range workerModes {
		b.Run(mode.name, func(b *testing.B) { workerWarmup(b, mode.opts) })
	}
}

func workerWarmup(b *testing.B, opts solc.Options) {
	const passes = 4
	corpus := benchCorpus(b)
	byCompiler := map[string][]*deploy.Record{}
	for _, e := range corpus.Entries {
		rec, err := corpus.Load(e, 1)
		if err != nil || rec.Source == nil {
			continue
		}
		v := rec.Source.CompilerVersion
		byCompiler[v] = append(byCompiler[v], rec)
	}
	var costRun, steady time.Duration
	var n int
	var fit []warmupPoint
	for range b.N {
		for _, v := range slices.Sorted(maps.Keys(byCompiler)) {
			recs := byCompiler[v]
			if len(recs) < 2 {
				continue
			}
			m := solc.NewManager(opts)
			spent := make([][]time.Duration, passes)
			for p := range passes {
				for _, rec := range recs {
					in := rec.CompileInput(nil)
					in.Targets = []string{rec.Name()}
					before := cpuclock.Tree()
					_, err := m.Compile(context.Background(), in)
					spent[p] = append(spent[p], cpuclock.Tree()-before)
					if err != nil {
						spent[p][len(spent[p])-1] = -1 // does not compile: left out
					}
				}
			}
			m.Close()
			for i := 1; i < len(recs); i++ {
				if spent[0][i] >= 0 && spent[1][i] >= 0 && spent[passes-1][i] >= 0 {
					costRun, steady, n = costRun+spent[0][i], steady+spent[passes-1][i], n+1
					fit = append(fit, warmupPoint{len(recs), i, [3]time.Duration{spent[0][i], spent[1][i], spent[passes-1][i]}})
				}
			}
		}
	}
	c := warmupSlope(fit)
	predicted := 0.0
	for _, f := range fit {
		predicted += ms(f.spent[0]) - c*(f.youth(0)-f.youth(passes-1))
	}
	b.ReportMetric(float64(costRun.Milliseconds())/float64(max(n, 1)), "cost-run-warm-cpu-ms")
	b.ReportMetric(float64(steady.Milliseconds())/float64(max(n, 1)), "steady-cpu-ms")
	b.ReportMetric(predicted/float64(max(n, 1)), "steady-predicted-cpu-ms")
	b.ReportMetric(c, "warmup-c-ms")
	b.ReportMetric(float64(n)/float64(b.N), "compiles")
}

// warmupPoint is one source's compile CPU in the first, second and last
// pass over its compiler's sources: the i-th of per.
type warmupPoint struct {
	per, i int
	spent  [3]time.Duration
}

// youth is 1/n for the source's compile in pass p: the worker had served
// p*per + i compiles before it.
func (f warmupPoint) youth(p int) float64 { return 1 / float64(p*f.per+f.i) }

// warmupSlope is the least-squares c in spent = source's own cost + c/n,
// fitted on the first two passes: each source's difference between them
// against the difference of its youth.
func warmupSlope(fit []warmupPoint) float64 {
	var sxy, sxx float64
	for _, f := range fit {
		dx, dy := f.youth(0)-f.youth(1), ms(f.spent[0])-ms(f.spent[1])
		sxy, sxx = sxy+dx*dy, sxx+dx*dx
	}
	if sxx == 0 {
		return 0
	}
	return sxy / sxx
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
