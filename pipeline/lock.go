package pipeline

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gofrs/flock"

	"github.com/solbehave/solbehave/internal/redact"
)

// LockDir is where a data folder's write locks live, below --data.
const LockDir = "locks"

// Holder says who holds a lock: written into the lock file by its holder.
type Holder struct {
	PID     int       `json:"pid"`
	Command string    `json:"command"`
	Started time.Time `json:"started"`
	Shard   string    `json:"shard,omitempty"`
}

// LockedError is a stage whose units another process is writing.
type LockedError struct {
	Data, Stage string
	Holder      *Holder // nil when the lock file says nothing readable
}

func (e *LockedError) Error() string {
	who := "another process"
	if h := e.Holder; h != nil {
		who = fmt.Sprintf("pid %d (%s, since %s", h.PID, h.Command, h.Started.Format(time.RFC3339))
		if h.Shard != "" {
			who += ", shard " + h.Shard
		}
		who += ")"
	}
	return fmt.Sprintf("data folder %s: stage %s is being written by %s; wait for it to finish, or use another --data",
		e.Data, e.Stage, who)
}

// LockStages takes the write lock of each stage in the data folder, so two
// processes never write one stage's units at once: a run, or one shard of
// it. Locks are flock(2) locks, released by the kernel when the process ends
// however it ends, so a killed run never blocks the next. A run of the whole
// corpus holds <stage>.lock exclusively; a shard holds it shared and its
// <stage>.shard-<i>-of-<n>.lock exclusively, so shards with disjoint
// partitions share the folder while a second copy of one shard, or a whole
// run, is refused. Readers (sql, status, digest) take no lock. The lock
// fails at once (it does not wait) with a *LockedError naming the holder.
func LockStages(data string, shard Shard, stages []string, command string) (release func(), err error) {
	var held []*flock.Flock
	release = func() {
		for _, l := range held {
			l.Unlock()
		}
	}
	me := Holder{PID: os.Getpid(), Command: redact.String(command), Started: time.Now().UTC().Truncate(time.Second)}
	if shard.N > 1 {
		me.Shard = fmt.Sprintf("%d/%d", shard.I, shard.N)
	}
	dir := filepath.Join(data, LockDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	for _, stage := range stages {
		paths := []string{filepath.Join(dir, stage+".lock")}
		if shard.N > 1 {
			paths = append(paths, filepath.Join(dir, fmt.Sprintf("%s.shard-%d-of-%d.lock", stage, shard.I, shard.N)))
		}
		for i, p := range paths {
			shared := shard.N > 1 && i == 0
			l, err := lockFile(p, shared)
			if err != nil {
				release()
				if errors.Is(err, errHeld) {
					return nil, &LockedError{Data: data, Stage: stage, Holder: readHolder(p)}
				}
				return nil, err
			}
			held = append(held, l)
			writeHolder(p, me)
		}
	}
	return release, nil
}

// lockFile locks a stage's lock file. A path that no process could hold
// (a folder or a FIFO put in its place, no permission) is refused at once
// with what is wrong: waiting for a holder would never end, and opening a
// FIFO would block.
func lockFile(path string, shared bool) (*flock.Flock, error) {
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("lock %s is a %s, not a lock file, so no run can take it and no process holds it: "+
			"remove it (rm -r %s) and run again", path, fileKind(fi.Mode()), path)
	}
	l, err := lock(path, shared)
	if err != nil && !errors.Is(err, errHeld) {
		return nil, fmt.Errorf("lock %s cannot be taken, and no process holds it: %v; make it a writable file, "+
			"or remove it, and run again", path, err)
	}
	return l, err
}

func fileKind(m os.FileMode) string {
	if m.IsDir() {
		return "folder"
	}
	return "special file (" + m.Type().String() + ")"
}

// LockFolder takes an exclusive lock on the folder dir itself, creating it
// when new: no lock file is written, since the folder's content is someone
// else's to define (a release holds only the release). It fails at once when
// another holder (another process, or another descriptor in this one: a
// blocking flock of the same folder would wait for ever) has it.
func LockFolder(dir string) (release func(), err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	l, err := lock(dir, false, flock.SetFlag(os.O_RDONLY))
	if errors.Is(err, errHeld) {
		return nil, fmt.Errorf("%s is being written by another process; wait for it to finish, or use another folder", dir)
	}
	if err != nil {
		return nil, err
	}
	return func() { l.Unlock() }, nil
}

var errHeld = errors.New("held")

func lock(path string, shared bool, opts ...flock.Option) (*flock.Flock, error) {
	l := flock.New(path, append([]flock.Option{flock.SetPermissions(0o644)}, opts...)...)
	try := l.TryLock
	if shared {
		try = l.TryRLock
	}
	ok, err := try()
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errHeld
	}
	return l, nil
}

// writeHolder writes in place (not through a rename: the lock is on the
// file's inode, which a rename would replace).
func writeHolder(path string, h Holder) {
	b, _ := json.Marshal(h)
	os.WriteFile(path, append(b, '\n'), 0o644)
}

func readHolder(path string) *Holder {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var h Holder
	if json.Unmarshal(b, &h) != nil || h.PID == 0 {
		return nil
	}
	h.Command = strings.TrimSpace(h.Command)
	return &h
}
