package main

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/solbehave/solbehave/cmd/solbehave/stagelist"
	"github.com/solbehave/solbehave/internal/config"
	"github.com/solbehave/solbehave/internal/redact"
	"github.com/solbehave/solbehave/internal/solc"
	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/pipeline"
)

// globals are the flags every command takes.
type globals struct {
	corpus string
	data   string
	seed   int64
	jobs   int
	force  bool
	quiet  bool
	shard  string
	retry  bool     // re-run the units whose stored output is an error row (solbehave retry)
	repin  []string // --repin KEY=VALUE: pins of the evaluation this run changes

	configPath string         // --config FILE ("" : solbehave.toml in the working folder, if any)
	cfg        *config.Config // the effective configuration (loaded before every command runs)
	cmdline    string         // the command line as given, for the runs dataset
	lastRun    string         // id of the last run that recorded a row (read by tests)
	logw       io.Writer      // where logs go: the command's stderr

	counters []pipeline.Counters // what the last run did per stage (read by tests)
}

func newRoot() *cobra.Command {
	root, _ := newRootWithGlobals()
	return root
}

func newRootWithGlobals() (*cobra.Command, *globals) {
	// Defaults for the commands that do not take a global flag themselves.
	g := &globals{corpus: filepath.Join("data", "corpus", "demo"), data: "data", seed: 42, jobs: runtime.NumCPU()}
	root := &cobra.Command{
		Use:           "solbehave",
		Short:         "Does the Solidity a model writes behave like the contract it was asked to rewrite?",
		Long:          "Does the Solidity a model writes behave like the contract it was asked to rewrite?\n\n" + exitCodes,
		Example:       rootExample,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       readVersion().withSolc().Text(),
		// Every command sees the effective configuration: solbehave.toml
		// (or --config FILE) under the flags given.
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error { return g.loadConfig(cmd) },
	}
	root.SetVersionTemplate("{{.Version}}")

	stages := stagelist.All()
	root.AddCommand(newStagesCmd(stages), newRunCmd(g, stages), newRetryCmd(g, stages), newSQLCmd(g),
		newErrorsCmd(g), newStatusCmd(g, stages), newDigestCmd(g), newBenchCmd(g), newForgetCmd(g), newCostCmd(g)) // cost.go
	root.AddCommand(newWorkerCmd(g), newTemporalCmd())                         // temporal.go
	root.AddCommand(newExportCmd(g), newPublishCmd(g, stages), newViewsCmd(g)) // export.go, publish.go
	root.AddCommand(newConfigCmd(g, stages), newVersionCmd())                  // config.go, version.go
	for _, s := range stages {
		root.AddCommand(newStageCmd(g, s))
	}
	g.bindCommands(root)
	polish(root) // help.go: examples, value names, suggestions, usage hints
	return root, g
}

// The global flags, as bits: each command takes only those it reads.
const (
	flagData = 1 << iota
	flagCorpus
	flagSeed
	flagJobs
	flagForce
	flagQuiet
	flagShard

	flagsRun = flagData | flagCorpus | flagSeed | flagJobs | flagForce | flagQuiet | flagShard
)

// globalFlags says which global flags each command takes (by command path
// after "solbehave"); stage commands take flagsRun, commands not listed none.
var globalFlags = map[string]int{
	"run": flagsRun, "retry": flagsRun, "config": flagsRun,
	"status": flagData | flagCorpus | flagSeed | flagShard,
	"sql":    flagData, "errors": flagData, "forget": flagData, "export": flagData, "views": flagData, "digest": flagData, "cost": flagData | flagSeed,
	"publish": flagData | flagCorpus,
	"bench":   flagData | flagCorpus | flagSeed | flagJobs,
	"worker":  flagData | flagCorpus | flagJobs | flagQuiet,
}

// bindCommands gives each command the global flags it reads, and --config
// to every command that reads one.
func (g *globals) bindCommands(root *cobra.Command) {
	stage := map[string]bool{}
	for _, n := range stagelist.Order {
		stage[n] = true
	}
	for _, c := range root.Commands() {
		which, ok := globalFlags[c.Name()]
		if !ok && stage[c.Name()] {
			which = flagsRun
		}
		if which == 0 {
			continue
		}
		g.bindSome(c.Flags(), which)
		c.Flags().StringVar(&g.configPath, "config", "", "configuration file (default: "+config.FileName+" in the working folder, when present)")
	}
}

// bind defines every global flag (the configuration's key space).
func (g *globals) bind(pf *pflag.FlagSet) { g.bindSome(pf, flagsRun) }

// bindSome defines the global flags in which.
func (g *globals) bindSome(pf *pflag.FlagSet, which int) {
	if which&flagCorpus != 0 {
		pf.StringVar(&g.corpus, "corpus", filepath.Join("data", "corpus", "demo"), "input corpus (Etherscan record layout)")
	}
	if which&flagData != 0 {
		pf.StringVar(&g.data, "data", "data", "output root (warehouse, DuckDB file, state)")
	}
	if which&flagSeed != 0 {
		pf.Int64Var(&g.seed, "seed", 42, "seed of every random choice")
	}
	if which&flagJobs != 0 {
		config.IntBetween(pf, &g.jobs, "jobs", runtime.NumCPU(), 1, 4096, "units run in parallel")
	}
	if which&flagForce != 0 {
		pf.BoolVar(&g.force, "force", false, "recompute units even when their inputs are unchanged")
	}
	if which&flagQuiet != 0 {
		pf.BoolVar(&g.quiet, "quiet", false, "log warnings and errors only")
	}
	if which&flagShard != 0 {
		pf.StringVar(&g.shard, "shard", "", "process only shard i/n of the contracts (e.g. 0/3); shards write disjoint partitions")
	}
}

// env builds the run environment from the global flags.
func (g *globals) env() *pipeline.Env {
	return &pipeline.Env{
		Corpus:    g.corpus,
		Data:      g.data,
		Seed:      g.seed,
		Jobs:      g.jobs,
		Log:       newLoggerTo(g.logw, g.quiet),
		Out:       os.Stdout,
		Warehouse: warehouse.New(filepath.Join(g.data, "warehouse")),
		// One compiler worker per job: with fewer, jobs would queue for compiles.
		Engines: &pipeline.Engines{SolcOptions: solc.Options{MaxWorkers: max(2, g.jobs)}},
	}
}

// newLogger logs to stderr: info and up, or warnings and up when quiet.
func newLogger(quiet bool) *slog.Logger { return newLoggerTo(os.Stderr, quiet) }

func newLoggerTo(w io.Writer, quiet bool) *slog.Logger {
	if w == nil {
		w = os.Stderr
	}
	level := slog.LevelInfo
	if quiet {
		level = slog.LevelWarn
	}
	return slog.New(redact.Handler(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level})))
}

func (g *globals) dbPath() string { return filepath.Join(g.data, "solbehave.duckdb") }

// failedUnitsError makes the exit status say that some units failed.
type failedUnitsError struct{ n int }

func (e *failedUnitsError) Error() string {
	return fmt.Sprintf("%d unit(s) failed; see `solbehave errors` or the errors view", e.n)
}
