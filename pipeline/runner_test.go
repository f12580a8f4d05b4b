package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/solbehave/solbehave/internal/failure"
	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/schemas"
)

// countingStage has n units (ids from id) that each write one error-free
// row, or fail when fail says so; it counts the units it ran.
type countingStage struct {
	n        int
	id       func(i int) string
	fail     func(id string) bool
	files    func(id string) []string
	affinity func(id string) string
	ran      atomic.Int32
	mu       sync.Mutex
	order    []string // units in the order they ran
}

func (s *countingStage) Name() string             { return "counting" }
func (s *countingStage) Summary() string          { return "test stage" }
func (s *countingStage) Version() string          { return "1" }
func (s *countingStage) BindFlags(*pflag.FlagSet) {}
func (s *countingStage) Plan(context.Context, *Env) ([]Unit, error) {
	var units []Unit
	for i := 0; i < s.n; i++ {
		id := fmt.Sprintf("C%02d_0x%040x", i, i)
		if s.id != nil {
			id = s.id(i)
		}
		u := Unit{ID: id, Contract: strings.Split(id, "/")[0], Fingerprint: "f"}
		if s.files != nil {
			u.Files = s.files(id)
		}
		if s.affinity != nil {
			u.Affinity = s.affinity(id)
		}
		units = append(units, u)
	}
	return units, nil
}
func (s *countingStage) Run(_ context.Context, _ *Env, u Unit) (*Output, error) {
	s.ran.Add(1)
	s.mu.Lock()
	s.order = append(s.order, u.ID)
	s.mu.Unlock()
	if s.fail != nil && s.fail(u.ID) {
		return nil, failure.New(failure.Input, false, errors.New("bad input"))
	}
	out := &Output{}
	Add(out, schemas.Errors, []schemas.ErrorRow{{Stage: "ok", Unit: u.ID}})
	return out, nil
}

func testEnv(t *testing.T, jobs int) *Env {
	data := t.TempDir()
	return &Env{Data: data, Jobs: jobs, Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Warehouse: warehouse.New(filepath.Join(data, "warehouse")), Engines: &Engines{}}
}

// TestUnitsOfOneAffinityRunTogether: units that need the same compiler run
// one after another (one warm worker serves them), the largest group first,
// each group in plan order.
func TestUnitsOfOneAffinityRunTogether(t *testing.T) {
	s := &countingStage{n: 7, id: func(i int) string { return fmt.Sprintf("C%d_0x%040x", i, i) },
		affinity: func(id string) string { return map[bool]string{true: "v0.8.7", false: "v0.4.24"}[id[1]%2 == 1] }}
	if _, err := (&Runner{Env: testEnv(t, 1)}).Run(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, id := range s.order {
		got = append(got, id[:2])
	}
	if want := "C0 C2 C4 C6 C1 C3 C5"; strings.Join(got, " ") != want {
		t.Errorf("ran %v, want %s (v0.4.24's four units, then v0.8.7's three)", got, want)
	}
}

// With several jobs, a job keeps to its compiler while it has units and
// then takes over the largest group left: every unit runs once, and the
// jobs switch compilers no more than there are groups and jobs.
func TestQueueKeepsJobsOnTheirAffinity(t *testing.T) {
	var units []Unit
	for i := range 40 {
		units = append(units, Unit{ID: fmt.Sprint(i), Affinity: fmt.Sprintf("v%d", i%5)})
	}
	q := newQueue(units)
	prev := []string{"", "", ""}
	seen, switches := map[string]bool{}, 0
	for job := 0; ; job = (job + 1) % 3 {
		u, ok := q.next(prev[job])
		if !ok {
			break
		}
		if seen[u.ID] {
			t.Fatalf("unit %s handed out twice", u.ID)
		}
		seen[u.ID] = true
		if u.Affinity != prev[job] {
			switches++
		}
		prev[job] = u.Affinity
	}
	if len(seen) != 40 || switches > 5+3 {
		t.Errorf("%d units handed out, %d compiler switches; want 40 and at most 8", len(seen), switches)
	}
}

// TestFailingWriteStopsTheStage: after a write fails (a full disk, injected
// through the runner's write hook), the stage stops instead of computing
// every remaining unit only to drop it; what was written stays, and the
// next run does the rest.
func TestFailingWriteStopsTheStage(t *testing.T) {
	env := testEnv(t, 1)
	s := &countingStage{n: 40}
	var writes atomic.Int32
	r := &Runner{Env: env, writePart: func(w datasetWrite, path string) error {
		if writes.Add(1) > 3 {
			return syscall.ENOSPC
		}
		return w.write(path)
	}}
	c, err := r.Run(context.Background(), s)
	if !errors.Is(err, ErrStorage) || !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("want the storage error to stop the run, got %v", err)
	}
	if s.ran.Load() > 5 {
		t.Fatalf("the stage computed %d of 40 units after its writes began to fail", s.ran.Load())
	}
	if c.Ran != 3 || c.Failed != 0 {
		t.Fatalf("counters %+v: want the 3 stored units, none failed", c)
	}
	c, err = (&Runner{Env: env}).Run(context.Background(), s)
	if err != nil || c.Skipped != 3 || c.Ran != 37 {
		t.Fatalf("the next run should do the 37 others: %+v %v", c, err)
	}
}

// TestCollidingUnitFilesAreRefused: two units whose ids differ only in
// characters that file names replace would share a manifest, a part or a
// file of their own (as the paths map them: ':', '+', '/' alike); a unit
// whose file name would be over the limit is refused too. Nothing runs.
func TestCollidingUnitFilesAreRefused(t *testing.T) {
	long := "C_0x01/import:" + strings.Repeat("x", 200)
	for _, tc := range []struct {
		ids   []string
		files func(id string) []string
		want  string
	}{
		{ids: []string{"C_0x01/openai:m", "C_0x01/openai_m"}, want: "openai_m"},
		{ids: []string{"C_0x01/import:a+b", "C_0x01/import:a_b"}, want: "import:a_b"},
		{ids: []string{"C_0x01/openai:org/m", "C_0x01/openai:org_m"}, want: "samples",
			files: func(id string) []string {
				return []string{"samples/C_0x01/" + warehouse.Sanitize(strings.TrimPrefix(id, "C_0x01/"))}
			}},
		{ids: []string{long}, want: "over 200"},
	} {
		s := &countingStage{n: len(tc.ids), id: func(i int) string { return tc.ids[i] }, files: tc.files}
		_, err := (&Runner{Env: testEnv(t, 1)}).Run(context.Background(), s)
		if err == nil || !strings.Contains(err.Error(), tc.ids[0]) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: want a plan error naming the units and %q, got %v", tc.ids, tc.want, err)
		}
		if s.ran.Load() != 0 {
			t.Errorf("%q: units ran despite the collision", tc.ids)
		}
	}
}

// TestKeptFailuresAreCounted: a rerun that skips a unit whose stored output
// is its error row still reports it, so the exit status stays 2.
func TestKeptFailuresAreCounted(t *testing.T) {
	env := testEnv(t, 1)
	s := &countingStage{n: 3, fail: func(id string) bool { return strings.HasPrefix(id, "C01") }}
	c, _ := (&Runner{Env: env}).Run(context.Background(), s)
	if c.Failed != 1 {
		t.Fatalf("first run: %+v", c)
	}
	c, _ = (&Runner{Env: env}).Run(context.Background(), s)
	if c.Ran != 0 || c.KeptFailed != 1 {
		t.Fatalf("rerun: want nothing run and the 1 failure kept, got %+v", c)
	}
}

// TestStoppedUnitStoresNothing: a unit that fails because the run was
// stopped (Ctrl-C) is not recorded as failed; the next run does it.
func TestStoppedUnitStoresNothing(t *testing.T) {
	env := testEnv(t, 1)
	ctx, cancel := context.WithCancel(context.Background())
	s := &countingStage{n: 1, fail: func(string) bool { cancel(); return true }}
	(&Runner{Env: env}).Run(ctx, s)
	if files, _ := env.Warehouse.Files(schemas.Errors.Name()); len(files) != 0 {
		t.Fatalf("a stopped unit left %v", files)
	}
	s.fail = nil
	c, err := (&Runner{Env: env}).Run(context.Background(), s)
	if err != nil || c.Ran != 1 {
		t.Fatalf("the next run should do the unit: %+v %v", c, err)
	}
}

// TestLocks: a second writer of a stage is refused and told who holds it;
// shards of one split share the folder, a second copy of a shard and a
// whole run do not; another stage is free.
func TestLocks(t *testing.T) {
	data := t.TempDir()
	release, err := LockStages(data, Shard{}, []string{"verify"}, "solbehave run --samples 10")
	if err != nil {
		t.Fatal(err)
	}
	_, err = LockStages(data, Shard{}, []string{"crawl", "verify"}, "solbehave run --samples 3")
	var le *LockedError
	if !errors.As(err, &le) || le.Holder == nil || le.Holder.PID != os.Getpid() || !strings.Contains(err.Error(), "--samples 10") {
		t.Fatalf("want a LockedError naming the holder, got %v", err)
	}
	if r, err := LockStages(data, Shard{}, []string{"crawl"}, "x"); err != nil {
		t.Fatalf("the refused run must not keep crawl: %v", err)
	} else {
		r()
	}
	release()
	s0, err0 := LockStages(data, Shard{0, 2}, []string{"verify"}, "shard 0")
	s1, err1 := LockStages(data, Shard{1, 2}, []string{"verify"}, "shard 1")
	if err0 != nil || err1 != nil {
		t.Fatalf("two shards must share the folder: %v %v", err0, err1)
	}
	if _, err := LockStages(data, Shard{1, 2}, []string{"verify"}, "shard 1 again"); !errors.As(err, &le) || le.Holder.Shard != "1/2" {
		t.Fatalf("a second copy of shard 1 must be refused, got %v", err)
	}
	if _, err := LockStages(data, Shard{}, []string{"verify"}, "whole"); err == nil {
		t.Fatal("a whole run must wait for the shards")
	}
	s0()
	s1()
}

// TestKilledHolderNeverBlocks: a process that holds the lock and is killed
// leaves it free (flock locks die with their process).
func TestKilledHolderNeverBlocks(t *testing.T) {
	if os.Getenv("SOLBEHAVE_HOLD_LOCK") != "" {
		LockStages(os.Getenv("SOLBEHAVE_HOLD_LOCK"), Shard{}, []string{"verify"}, "holder")
		fmt.Println("held")
		time.Sleep(time.Minute)
		return
	}
	data := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestKilledHolderNeverBlocks$")
	cmd.Env = append(os.Environ(), "SOLBEHAVE_HOLD_LOCK="+data)
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4)
	io.ReadFull(out, buf)
	if _, err := LockStages(data, Shard{}, []string{"verify"}, "me"); err == nil {
		t.Fatal("the holder's lock was not taken")
	}
	cmd.Process.Kill()
	cmd.Wait()
	if _, err := LockStages(data, Shard{}, []string{"verify"}, "me"); err != nil {
		t.Fatalf("a killed holder still blocks: %v", err)
	}
}

// TestUnusableLockPathSaysWhatIsWrong: a lock path replaced by a folder or
// a FIFO (no process holds either) is no LockedError telling the user to
// wait forever: the error names the path, what it is and how to clear it,
// at once; once cleared, the lock is taken.
func TestUnusableLockPathSaysWhatIsWrong(t *testing.T) {
	data := t.TempDir()
	locks := filepath.Join(data, LockDir)
	folder, fifo := filepath.Join(locks, "verify.lock"), filepath.Join(locks, "crawl.shard-1-of-2.lock")
	os.MkdirAll(filepath.Join(folder, "inside"), 0o755)
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		stage, path, kind string
		shard             Shard
	}{{"verify", folder, "is a folder", Shard{}}, {"crawl", fifo, "is a special file", Shard{I: 1, N: 2}}} {
		_, err := LockStages(data, tc.shard, []string{tc.stage}, "solbehave run")
		var le *LockedError
		if err == nil || errors.As(err, &le) || !strings.Contains(err.Error(), tc.path+" "+tc.kind) ||
			!strings.Contains(err.Error(), "rm -r "+tc.path) {
			t.Errorf("lock path %s %s: want an error naming it, what it is and how to clear it, got %v", tc.path, tc.kind, err)
		}
		os.RemoveAll(tc.path)
		release, err := LockStages(data, tc.shard, []string{tc.stage}, "solbehave run")
		if err != nil {
			t.Fatalf("after removing %s: %v", tc.path, err)
		}
		release()
	}
}

// TestLockFolder: a folder locked by one writer is refused to a second at
// once, holds no lock file, and is free again once released.
func TestLockFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "release")
	release, err := LockFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := LockFolder(dir); err == nil || !strings.Contains(err.Error(), "being written by another process") {
		t.Fatalf("a second writer of a locked folder: want a refusal, got %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("the lock wrote into the folder: %v", entries)
	}
	release()
	again, err := LockFolder(dir)
	if err != nil {
		t.Fatalf("a released folder stays locked: %v", err)
	}
	again()
}
