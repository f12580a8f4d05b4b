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

var (
	binaryOnce sync.Once
	binaryPath string
	binaryErr  error
)

// builtBinary is this package built once, for the tests that run it as a
// separate process (SIGKILL, Temporal workers).
func builtBinary(t *testing.T) string {
	t.Helper()
	binaryOnce.Do(func() {
		binaryPath = filepath.Join(fixtureRoot, "solbehave")
		if out, err := exec.Command("go", "build", "-o", binaryPath, ".").CombinedOutput(); err != nil {
			binaryErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binaryErr != nil {
		t.Fatal(binaryErr)
	}
	return binaryPath
}

// smallRun is the small corpus run once from scratch by the built binary
// with pipelineArgs: the warehouse that the determinism, crash and Temporal
// tests compare theirs with, and the incremental test starts from.
type smallRun struct {
	bin, corpus, data string
	digest            string        // `solbehave digest` of data
	wall              time.Duration // how long the run took
}

var (
	referenceOnce sync.Once
	reference     smallRun
	referenceErr  error
)

// smallReference returns the shared reference run, making it on first use.
// Tests must not write into its folders.
func smallReference(t *testing.T) smallRun {
	t.Helper()
	bin := builtBinary(t)
	referenceOnce.Do(func() { reference, referenceErr = makeReference(t, bin) })
	if referenceErr != nil {
		t.Fatal(referenceErr)
	}
	return reference
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
