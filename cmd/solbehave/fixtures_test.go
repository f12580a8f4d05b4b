package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// fixtureRoot holds what several tests of this package share, made once and
// only read afterwards (TestMain removes it).
var fixtureRoot string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "solbehave-cmd-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fixtureRoot = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// onceFixture is a fixture made on first use: every later test gets the
// same value, or the same failure, without making it again.
type onceFixture[T any] struct {
	once  sync.Once
	value T
	err   error
}

func (f *onceFixture[T]) get(t *testing.T, build func() (T, error)) T {
	t.Helper()
	f.once.Do(func() { f.value, f.err = build() })
	if f.err != nil {
		t.Fatal(f.err)
	}
	return f.value
}

var binary onceFixture[string]

// builtBinary is this package built once, for the tests that run it as a
// separate process (SIGKILL, Temporal workers).
func builtBinary(t *testing.T) string {
	t.Helper()
	return binary.get(t, func() (string, error) {
		path := filepath.Join(fixtureRoot, "solbehave")
		if out, err := exec.Command("go", "build", "-o", path, ".").CombinedOutput(); err != nil {
			return path, fmt.Errorf("go build: %v\n%s", err, out)
		}
		return path, nil
	})
}

// smallRun is the small corpus run once from scratch by the built binary
// with pipelineArgs: the warehouse that the determinism, crash and Temporal
// tests compare theirs with, and the incremental test starts from.
type smallRun struct {
	bin, corpus, data string
	digest            string        // `solbehave digest` of data
	wall              time.Duration // how long the run took
}

var reference onceFixture[smallRun]

// smallReference returns the shared reference run, making it on first use.
// Tests must not write into its folders.
func smallReference(t *testing.T) smallRun {
	t.Helper()
	bin := builtBinary(t)
	return reference.get(t, func() (smallRun, error) { return makeReference(t, bin) })
}

func makeReference(t *testing.T, bin string) (smallRun, error) {
	r := smallRun{bin: bin, corpus: filepath.Join(fixtureRoot, "small-corpus"), data: filepath.Join(fixtureRoot, "small-reference")}
	for _, id := range smallCorpusIDs {
		if err := copyTree(filepath.Join(demoCorpus, id), filepath.Join(r.corpus, id)); err != nil {
			return r, err
		}
	}
	start := time.Now()
	if err := runBinary(bin, r.corpus, r.data, 0); err != nil {
		return r, err
	}
	r.wall = time.Since(start)
	out, err := solbehave(t, "digest", "--data", r.data)
	r.digest = out
	return r, err
}

// runBinary runs bin with pipelineArgs to completion, or SIGKILLs it after
// killAfter (then its exit is not an error).
func runBinary(bin, corpus, data string, killAfter time.Duration) error {
	cmd := exec.Command(bin, append(append([]string{}, pipelineArgs...), "--corpus", corpus, "--data", data)...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return err
	}
	if killAfter > 0 {
		timer := time.AfterFunc(killAfter, func() { cmd.Process.Signal(os.Kill) })
		cmd.Wait()
		timer.Stop()
		return nil
	}
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("run: %v\n%s", err, out.String())
	}
	return nil
}
