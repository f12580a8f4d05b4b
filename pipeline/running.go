package pipeline

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/solbehave/solbehave/internal/inputfile"
)

// A run that is writing a data folder says so in <data>/state/running.json:
// its stages and where each stands. A stage's rows are in the views as soon
// as it ends (the run rebuilds the DuckDB file then); this file says which
// stages are still to come, so a reader knows what the views lack yet.

// Stage states in a RunState.
const (
	StagePending = "pending"
	StageRunning = "running"
	StageDone    = "done"
)

// RunState is the run writing a data folder now.
type RunState struct {
	RunID   string       `json:"run_id"`
	PID     int          `json:"pid"`
	Started time.Time    `json:"started"`
	Stages  []StageState `json:"stages"`
}

// StageState is one stage of a RunState.
type StageState struct {
	Stage string `json:"stage"`
	State string `json:"state"`
}

func runStatePath(data string) string { return filepath.Join(data, "state", "running.json") }

// NewRunState is a run of stages by this process, every stage pending.
func NewRunState(runID string, stages []string) *RunState {
	st := &RunState{RunID: runID, PID: os.Getpid(), Started: time.Now().UTC()}
	for _, s := range stages {
		st.Stages = append(st.Stages, StageState{Stage: s, State: StagePending})
	}
	return st
}

// Mark sets a stage's state and writes the file.
func (st *RunState) Mark(data, stage, state string) error {
	for i := range st.Stages {
		if st.Stages[i].Stage == stage {
			st.Stages[i].State = state
		}
	}
	return writeJSON(runStatePath(data), st)
}

// ClearRunState removes the file at the run's end.
func ClearRunState(data string) { os.Remove(runStatePath(data)) }

// ReadRunState is the run writing data now: nil when none is, or when the
// process that wrote the file is gone (a killed run leaves it behind).
func ReadRunState(data string) (*RunState, error) {
	b, err := inputfile.Read(runStatePath(data), 1<<20)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var st RunState
	if err := json.Unmarshal(b, &st); err != nil {
		return nil, nil // half a file from another version: no run to report
	}
	if !alive(st.PID) {
		return nil, nil
	}
	return &st, nil
}

func alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
