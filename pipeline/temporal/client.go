package temporal

import (
	"context"
	"crypto/tls"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/spf13/pflag"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"

	"github.com/solbehave/solbehave/pipeline"
)

// APIKeyEnv names the variable holding an API key (Temporal Cloud); keys
// never go on the command line.
const APIKeyEnv = "SOLBEHAVE_TEMPORAL_API_KEY"

// Connection says how to reach a Temporal cluster.
type Connection struct {
	HostPort  string
	Namespace string
	TaskQueue string
	TLS       bool   // TLS with the system's roots (implied by an API key or a client certificate)
	TLSCert   string // client certificate (mTLS), PEM file
	TLSKey    string
}

// BindFlags adds --temporal, --namespace, --task-queue and the TLS flags.
func (c *Connection) BindFlags(fs *pflag.FlagSet) {
	fs.StringVar(&c.HostPort, "temporal", "", "Temporal frontend HOST:PORT (e.g. localhost:7233, or <ns>.<acct>.tmprl.cloud:7233)")
	fs.StringVar(&c.Namespace, "namespace", "default", "Temporal namespace")
	fs.StringVar(&c.TaskQueue, "task-queue", DefaultTaskQueue, "Temporal task queue of the workflows and units")
	fs.BoolVar(&c.TLS, "temporal-tls", false, "connect with TLS (implied by $"+APIKeyEnv+" or --temporal-tls-cert)")
	fs.StringVar(&c.TLSCert, "temporal-tls-cert", "", "client certificate for mTLS (PEM)")
	fs.StringVar(&c.TLSKey, "temporal-tls-key", "", "client key for mTLS (PEM)")
}

// Dial connects to the cluster; SDK logs go to log.
func (c Connection) Dial(log *slog.Logger) (client.Client, error) {
	if c.HostPort == "" {
		return nil, fmt.Errorf("--temporal HOST:PORT is required")
	}
	opts := client.Options{HostPort: c.HostPort, Namespace: c.Namespace, Logger: sdklog.NewStructuredLogger(log)}
	if key := os.Getenv(APIKeyEnv); key != "" {
		opts.Credentials = client.NewAPIKeyStaticCredentials(key)
		c.TLS = true
	}
	if c.TLSCert != "" {
		cert, err := tls.LoadX509KeyPair(c.TLSCert, c.TLSKey)
		if err != nil {
			return nil, fmt.Errorf("--temporal-tls-cert: %w", err)
		}
		opts.ConnectionOptions.TLS = &tls.Config{Certificates: []tls.Certificate{cert}}
	} else if c.TLS {
		opts.ConnectionOptions.TLS = &tls.Config{}
	}
	cl, err := client.Dial(opts)
	if err != nil {
		return nil, fmt.Errorf("connecting to Temporal at %s: %w", c.HostPort, err)
	}
	return cl, nil
}

// Submit starts the run's workflow, shows its progress as the local runner
// shows its own (from the progress query), and waits for its counters.
// Leaving early (ctx cancelled) leaves the workflow running: it is durable.
func Submit(ctx context.Context, c client.Client, cfg Config, env *pipeline.Env, bar bool) ([]StageCounters, error) {
	cfg = cfg.withDefaults()
	id := fmt.Sprintf("solbehave-run-%s-%d", time.Now().UTC().Format("20060102T150405.000"), os.Getpid())
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: cfg.TaskQueue}, RunWorkflowName, cfg)
	if err != nil {
		return nil, fmt.Errorf("starting the workflow: %w", err)
	}
	env.Log.Info("workflow started", "workflow_id", run.GetID(), "run_id", run.GetRunID(), "task_queue", cfg.TaskQueue)
	w := &watcher{env: env, bar: bar, index: -1}
	wctx, stop := context.WithCancel(ctx)
	watched := make(chan struct{})
	go func() { w.watch(wctx, c, run.GetID()); close(watched) }()
	var counters []StageCounters
	err = run.Get(ctx, &counters)
	stop()
	<-watched
	w.complete(counters)
	if ctx.Err() != nil {
		env.Log.Warn("stopped waiting; the workflow goes on", "workflow_id", run.GetID())
	}
	return counters, err
}

// watch polls the progress queries until ctx ends.
func (w *watcher) watch(ctx context.Context, c client.Client, id string) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			w.poll(ctx, c, id)
		}
	}
}

type watcher struct {
	env   *pipeline.Env
	bar   bool
	index int // stage shown
	prog  *pipeline.Progress
	seen  int    // units of that stage already shown
	last  string // the unit that finished last
}

func (w *watcher) poll(ctx context.Context, c client.Client, id string) {
	var run RunProgress
	if query(ctx, c, id, &run) != nil {
		return
	}
	if run.Index > w.index {
		w.complete(run.Finished) // the stage shown ended between polls
	}
	if run.StageWorkflow == "" {
		return
	}
	var st StageProgress
	if query(ctx, c, run.StageWorkflow, &st) != nil || st.Counters.Units == 0 {
		return // not planned yet, or nothing to do
	}
	if w.prog == nil || w.index != run.Index {
		if w.prog != nil {
			w.prog.Done() // ends its heartbeat
		}
		w.index, w.seen = run.Index, 0
		w.prog = pipeline.NewProgress(w.env, run.Stages[run.Index], st.ToRun, w.bar)
	}
	w.advance(st.Counters.Ran, st.Last, st.Counters.Failed > 0)
}

func (w *watcher) advance(ran int, last string, failed bool) {
	if last != "" {
		w.last = last
	}
	if w.prog != nil && ran > w.seen {
		w.prog.Advance(ran-w.seen, w.last, failed)
		w.seen = ran
	}
}

// complete shows the end of the stage on display from the finished stages' counters.
func (w *watcher) complete(finished []StageCounters) {
	if w.prog == nil {
		return
	}
	if w.index >= 0 && w.index < len(finished) {
		f := finished[w.index]
		w.advance(f.Ran, "", f.Failed > 0)
	}
	w.prog.Done()
	w.prog = nil
}

func query(ctx context.Context, c client.Client, id string, into any) error {
	v, err := c.QueryWorkflow(ctx, id, "", ProgressQuery)
	if err != nil {
		return err
	}
	return v.Get(into)
}
