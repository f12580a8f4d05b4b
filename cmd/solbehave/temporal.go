package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/solbehave/solbehave/cmd/solbehave/stagelist"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/pipeline/temporal"
)

// engineFlags are `solbehave run`'s choice of engine and its Temporal settings.
type engineFlags struct {
	engine        string
	conn          temporal.Connection
	generateQueue string
	fanout        int
	heartbeat     time.Duration
	attempts      int
}

func (e *engineFlags) bind(fs *pflag.FlagSet) {
	fs.StringVar(&e.engine, "engine", "local", "local (this process, no server) or temporal (a workflow on --temporal; run `solbehave worker` somewhere)")
	e.conn.BindFlags(fs)
	fs.StringVar(&e.generateQueue, "generate-queue", "", "temporal: task queue of the generation units (e.g. gpu), served by `solbehave worker --task-queue gpu --stages generate`")
	fs.IntVar(&e.fanout, "fanout", 64, "temporal: most units of a stage in flight at once")
	fs.DurationVar(&e.heartbeat, "heartbeat", 30*time.Second, "temporal: a unit whose worker is silent this long runs again on another")
	fs.IntVar(&e.attempts, "unit-attempts", 3, "temporal: tries of a unit that fails for a retriable reason (backoff 1s, 2s, 4s ... 1m)")
}

// runTemporal submits the stages as one workflow and waits for its counters.
func runTemporal(cmd *cobra.Command, g *globals, e *engineFlags, stages []pipeline.Stage, env *pipeline.Env) ([]pipeline.Counters, error) {
	cfg, err := temporalConfig(cmd, g, e, stages, env.Run)
	if err != nil {
		return nil, err
	}
	c, err := e.conn.Dial(env.Log)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	res, err := temporal.Submit(cmd.Context(), c, cfg, env, !g.quiet)
	var out []pipeline.Counters
	for _, sc := range res {
		if sc.Retried > 0 {
			env.Log.Info("retried units", "stage", sc.Stage, "retried", sc.Retried)
		}
		out = append(out, sc.Counters)
	}
	return out, err
}

// temporalConfig is the workflow's input: the chosen stages, the effective
// stage configuration, the run's id and parameters for the manifests, and
// absolute paths (every worker must see the same ones).
func temporalConfig(cmd *cobra.Command, g *globals, e *engineFlags, stages []pipeline.Stage, run *pipeline.RunInfo) (temporal.Config, error) {
	corpus, err1 := filepath.Abs(g.corpus)
	data, err2 := filepath.Abs(g.data)
	if err1 != nil || err2 != nil {
		return temporal.Config{}, fmt.Errorf("absolute paths: %v %v", err1, err2)
	}
	cfg := temporal.Config{
		Flags: temporal.StageFlags(cmd.Flags(), stagelist.All()), RunID: run.ID, Params: run.Params,
		Corpus: corpus, Data: data, Seed: g.seed,
		Force: g.force, Shard: g.shard, TaskQueue: e.conn.TaskQueue, GenerateQueue: e.generateQueue,
		Fanout: e.fanout, Heartbeat: e.heartbeat, Attempts: int32(e.attempts),
	}
	for _, s := range stages {
		cfg.Stages = append(cfg.Stages, s.Name())
	}
	return cfg, nil
}

// newWorkerCmd is `solbehave worker`: runs workflows and units from a task
// queue until interrupted.
func newWorkerCmd(g *globals) *cobra.Command {
	var conn temporal.Connection
	var only []string
	cmd := &cobra.Command{
		Use:   "worker",
		Short: "Run pipeline units for `solbehave run --engine temporal` (one per machine; --jobs units at once)",
		Long: "Polls a Temporal task queue and runs the workflows and the units of the stages it is given. The run's " +
			"--corpus and --data paths come with the workflow and must exist on this machine (a shared volume). " +
			"Keys (ETHERSCAN_API_KEY, SOLBEHAVE_LLM_API_KEY) come from this worker's environment. " +
			"Test hook: $" + temporal.FaultEnv + " injects unit failures (STAGE:UNIT:retriable|fatal, comma-separated).",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkStages(only); err != nil {
				return err
			}
			faults, err := temporal.ParseFaults(os.Getenv(temporal.FaultEnv))
			if err != nil {
				return err
			}
			env := g.env()
			defer env.Engines.Close()
			c, err := conn.Dial(env.Log)
			if err != nil {
				return err
			}
			defer c.Close()
			w := &temporal.Worker{NewStages: stagelist.All, Only: only, Jobs: g.jobs, Log: env.Log, Engines: env.Engines, Faults: faults}
			env.Log.Info("worker started", "temporal", conn.HostPort, "namespace", conn.Namespace,
				"task_queue", conn.TaskQueue, "jobs", g.jobs, "stages", only, "pid", os.Getpid())
			return w.Serve(cmd.Context(), c, conn.TaskQueue)
		},
	}
	conn.BindFlags(cmd.Flags())
	cmd.Flags().StringSliceVar(&only, "stages", nil, "run only these stages' units (default all), e.g. generate on a GPU queue")
	return cmd
}

func checkStages(names []string) error {
	_, err := selectStages(stagelist.All(), "", names)
	return err
}

// newTemporalCmd groups the Temporal helpers.
func newTemporalCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "temporal", Short: "Temporal helpers: an embedded dev server for one machine and for tests"}
	cmd.AddCommand(newDevServerCmd())
	return cmd
}

// newDevServerCmd is `solbehave temporal dev-server`: builds tools/temporal-dev
// on first use (cached by its content) and execs it, so the server's signals
// and exit status are its own.
func newDevServerCmd() *cobra.Command {
	var port int
	var db, ip, namespace, source, level string
	var buildOnly bool
	cmd := &cobra.Command{
		Use:   "dev-server",
		Short: "Start an embedded Temporal server (SQLite) on --port; prints `ready HOST:PORT`",
		Long: "Runs go.temporal.io/server in one process with SQLite persistence (in memory, or --db FILE to keep its " +
			"state). The server is its own Go module (" + temporal.DevServerModule + "), so solbehave links only the SDK; " +
			"the first use builds it into $SOLBEHAVE_CACHE/temporal-dev (minutes; needs Go and the module proxy).",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if source == "" {
				var err error
				if source, err = temporal.FindDevServerSource(); err != nil {
					return err
				}
			}
			bin, err := temporal.DevServerBinary(cmd.Context(), source, temporal.CacheDir(), newLogger(false))
			if err != nil || buildOnly {
				if err == nil {
					fmt.Fprintln(cmd.OutOrStdout(), bin)
				}
				return err
			}
			args := []string{bin, "--ip", ip, "--port", strconv.Itoa(port), "--namespace", namespace, "--log-level", level}
			if db != "" {
				args = append(args, "--db", db)
			}
			return syscall.Exec(bin, args, os.Environ())
		},
	}
	f := cmd.Flags()
	f.IntVar(&port, "port", 7233, "frontend gRPC port (the history, matching and worker services take the next three)")
	f.StringVar(&db, "db", "", "SQLite file for the server's state (default: in memory, lost on exit)")
	f.StringVar(&ip, "ip", "127.0.0.1", "address to listen on (0.0.0.0 for workers on other machines)")
	f.StringVar(&namespace, "namespace", "default", "namespace to create")
	f.StringVar(&source, "source", "", "the dev server's module (default: "+temporal.DevServerModule+" above the working directory)")
	f.StringVar(&level, "log-level", "warn", "server log level")
	f.BoolVar(&buildOnly, "build-only", false, "build (or find) the cached server binary, print its path and exit (make test runs this first)")
	return cmd
}
