package solc

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/solbehave/solbehave/internal/walltime"
)

// ErrWorkerCrashed wraps failures of a compiler worker process (it died, or
// soljson threw); the request in flight fails, the next one gets a new worker.
var ErrWorkerCrashed = errors.New("solc: compiler worker crashed")

// ErrVersionMismatch is returned when a loaded soljson reports a version
// other than the release asked for (e.g. npm's solc@0.8.7 reports 0.7.5).
var ErrVersionMismatch = errors.New("solc: compiler reports a different version")

// DefaultStartupTimeout is Options.StartupTimeout when it names none.
const DefaultStartupTimeout = 2 * time.Minute

// worker is one Node process holding one loaded soljson.
type worker struct {
	key     string // npm spec of the compiler
	version string // what version() reported

	cmd     *exec.Cmd
	stdin   io.WriteCloser
	replies chan workerReply
	exited  chan struct{}
	exitErr error
	stderr  *ring

	killOnce sync.Once
	killed   chan struct{}
	nextID   int64

	// Pool bookkeeping, guarded by pool.mu.
	busy     bool
	lastUsed time.Time
	uses     int
}

type workerReply struct {
	ID      int64   `json:"id"`
	Ready   *bool   `json:"ready"`
	Version string  `json:"version"`
	Output  *string `json:"output"`
	Error   string  `json:"error"`
}

type workerSpec struct {
	node, script, wrapper, soljson, key string
	once                                bool // exit after one compile (spawn baseline)
	noLiftoff                           bool // see Options.NoLiftoff
	plainTable                          bool // see Options.PlainTable
	startup                             time.Duration
}

func startWorker(ctx context.Context, spec workerSpec) (*worker, error) {
	args := []string{"--no-warnings", spec.script, spec.wrapper, spec.soljson}
	if spec.noLiftoff {
		args = slices.Insert(args, 1, "--no-liftoff")
	}
	if spec.once {
		args = append(args, "--once")
	}
	if spec.plainTable {
		args = append(args, "--plain-table")
	}
	cmd := exec.Command(spec.node, args...)
	w := &worker{
		key:     spec.key,
		cmd:     cmd,
		replies: make(chan workerReply, 4),
		exited:  make(chan struct{}),
		killed:  make(chan struct{}),
		stderr:  &ring{max: 8 << 10},
	}
	cmd.Stderr = w.stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if w.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("solc: starting %s: %w", spec.node, err)
	}
	go w.read(stdout)
	if err := w.awaitReady(ctx, spec.startup); err != nil {
		w.kill()
		return nil, err
	}
	return w, nil
}

func (w *worker) awaitReady(ctx context.Context, limit time.Duration) error {
	timer := time.NewTimer(limit)
	defer timer.Stop()
	select {
	case r := <-w.replies:
		if r.Ready == nil || !*r.Ready {
			return fmt.Errorf("%w: loading %s: %s", ErrWorkerCrashed, w.key, r.Error)
		}
		w.version = r.Version
		return nil
	case <-w.exited:
		if r, ok := w.pending(); ok && r.Error != "" {
			return fmt.Errorf("%w: loading %s: %s", ErrWorkerCrashed, w.key, r.Error)
		}
		return fmt.Errorf("%w: loading %s: %s", ErrWorkerCrashed, w.key, w.exitReason())
	case <-timer.C:
		return walltime.Errorf(limit, "solc: loading %s", w.key)
	case <-ctx.Done():
		return ctx.Err()
	}
}

// read turns stdout lines into replies until the process ends.
func (w *worker) read(stdout io.Reader) {
	br := bufio.NewReaderSize(stdout, 1<<20)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			var r workerReply
			if json.Unmarshal(line, &r) == nil {
				select {
				case w.replies <- r:
				case <-w.killed:
				}
			} else {
				w.stderr.Write(line) // not a protocol line; keep it for diagnostics
			}
		}
		if err != nil {
			break
		}
	}
	w.exitErr = w.cmd.Wait()
	close(w.exited)
}

func (w *worker) pending() (workerReply, bool) {
	select {
	case r := <-w.replies:
		return r, true
	default:
		return workerReply{}, false
	}
}

func (w *worker) alive() bool {
	select {
	case <-w.exited:
		return false
	default:
		return true
	}
}

func (w *worker) kill() {
	w.killOnce.Do(func() {
		close(w.killed)
		if w.cmd.Process != nil {
			w.cmd.Process.Kill()
		}
	})
}

func (w *worker) exitReason() string {
	reason := "exited"
	if w.exitErr != nil {
		reason = w.exitErr.Error()
	}
	if t := tail(w.stderr.String(), 800); t != "" {
		reason += ": " + t
	}
	return reason
}

// compile sends one standard-JSON input and waits for the output. On a
// cancelled context the worker is killed (soljson cannot be interrupted).
func (w *worker) compile(ctx context.Context, input []byte) ([]byte, error) {
	w.nextID++
	id := w.nextID
	line, err := json.Marshal(struct {
		ID    int64  `json:"id"`
		Input string `json:"input"`
	}{id, string(input)})
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if _, err := w.stdin.Write(append(line, '\n')); err != nil {
		<-w.exited
		return nil, fmt.Errorf("%w (%s): %s", ErrWorkerCrashed, w.key, w.exitReason())
	}
	select {
	case r := <-w.replies:
		return w.answer(r, id)
	case <-w.exited:
		if r, ok := w.pending(); ok {
			return w.answer(r, id)
		}
		return nil, fmt.Errorf("%w (%s): %s", ErrWorkerCrashed, w.key, w.exitReason())
	case <-ctx.Done():
		w.kill()
		return nil, ctx.Err()
	}
}

func (w *worker) answer(r workerReply, id int64) ([]byte, error) {
	switch {
	case r.Error != "":
		w.kill() // the worker exits after an internal error anyway
		return nil, fmt.Errorf("%w (%s): %s", ErrWorkerCrashed, w.key, r.Error)
	case r.ID != id || r.Output == nil:
		w.kill()
		return nil, fmt.Errorf("%w (%s): protocol error: answer %d to request %d", ErrWorkerCrashed, w.key, r.ID, id)
	}
	return []byte(*r.Output), nil
}

// ring keeps the last max bytes written (a worker's stderr).
type ring struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (r *ring) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.buf = append(r.buf, p...)
	if over := len(r.buf) - r.max; over > 0 {
		r.buf = append(r.buf[:0], r.buf[over:]...)
	}
	return len(p), nil
}

func (r *ring) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.TrimSpace(string(r.buf))
}
