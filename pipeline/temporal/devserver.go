package temporal

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"
)

// DevServerModule is where the dev server's own Go module sits in a checkout.
const DevServerModule = "tools/temporal-dev"

// FindDevServerSource looks for DevServerModule above the working directory
// and above the executable, so it is found from any folder of a checkout.
func FindDevServerSource() (string, error) {
	var starts []string
	if wd, err := os.Getwd(); err == nil {
		starts = append(starts, wd)
	}
	if exe, err := os.Executable(); err == nil {
		starts = append(starts, filepath.Dir(exe))
	}
	for _, dir := range starts {
		for d := dir; ; d = filepath.Dir(d) {
			src := filepath.Join(d, DevServerModule)
			if _, err := os.Stat(filepath.Join(src, "go.mod")); err == nil {
				return src, nil
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	return "", fmt.Errorf("%s not found above %v; pass --source (or use the Temporal CLI's `temporal server start-dev`)", DevServerModule, starts)
}

// DevServerBinary returns the dev server built from src, building it on first
// use into cacheDir/temporal-dev/<hash of the module and Go version>. The build
// is minutes on a small machine (the server is large), so it happens once.
func DevServerBinary(ctx context.Context, src, cacheDir string, log *slog.Logger) (string, error) {
	key, err := moduleHash(src)
	if err != nil {
		return "", err
	}
	bin := filepath.Join(cacheDir, "temporal-dev", key, "temporal-dev")
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		return "", err
	}
	log.Info("building the Temporal dev server (first use, cached afterwards)", "source", src, "into", bin)
	start := time.Now()
	// Build beside the target and rename, so concurrent builders and killed
	// builds never leave a partial binary at bin.
	tmp := fmt.Sprintf("%s.tmp-%d", bin, os.Getpid())
	if err := goBuild(ctx, src, tmp, log); err != nil {
		os.Remove(tmp)
		return "", err
	}
	if err := os.Rename(tmp, bin); err != nil {
		return "", err
	}
	log.Info("built the Temporal dev server", "elapsed", time.Since(start).Round(time.Second).String())
	return bin, nil
}

// progressEvery is how often a build that is still running says how far it
// got: the first build takes many minutes on a small machine.
var progressEvery = 15 * time.Second

// goBuild runs `go build -v` of the module at src into out, logging every
// progressEvery how many modules it downloaded and packages it compiled.
func goBuild(ctx context.Context, src, out string, log *slog.Logger) error {
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	defer r.Close()
	cmd := exec.CommandContext(ctx, "go", "build", "-v", "-o", out, ".")
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	cmd.Stdout, cmd.Stderr = w, w
	err = cmd.Start()
	w.Close() // the child holds its own copy: EOF comes when it exits
	if err != nil {
		return fmt.Errorf("building %s: %w", src, err)
	}
	p := &buildProgress{start: time.Now()}
	tick := time.NewTicker(progressEvery)
	defer tick.Stop()
	done := make(chan struct{})
	go func() {
		defer close(done)
		lines := bufio.NewScanner(r)
		lines.Buffer(make([]byte, 64*1024), 1024*1024)
		for lines.Scan() {
			p.add(lines.Text())
		}
	}()
	for waiting := true; waiting; {
		select {
		case <-done:
			waiting = false
		case <-tick.C:
			p.report(log)
		}
	}
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("building %s: %w\n%s", src, err, p.output.String())
	}
	return nil
}

// buildProgress counts what `go build -v` reports.
type buildProgress struct {
	start             time.Time
	mu                sync.Mutex
	modules, packages int
	last              string
	output            bytes.Buffer // everything, for the error of a failed build
}

func (p *buildProgress) add(line string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.output.WriteString(line + "\n")
	switch {
	case strings.HasPrefix(line, "go: downloading "):
		p.modules++
		p.last = strings.TrimPrefix(line, "go: downloading ")
	case line != "" && !strings.ContainsAny(line, " \t:"):
		p.packages++ // -v names each package it compiles
		p.last = line
	}
}

func (p *buildProgress) report(log *slog.Logger) {
	p.mu.Lock()
	defer p.mu.Unlock()
	log.Info("building the Temporal dev server", "modules_downloaded", p.modules, "packages_compiled", p.packages,
		"last", p.last, "elapsed", time.Since(p.start).Round(time.Second).String())
}

// moduleHash digests the module's go.mod, go.sum and Go files and the Go
// toolchain, so any change rebuilds.
func moduleHash(src string) (string, error) {
	files, err := filepath.Glob(filepath.Join(src, "*.go"))
	if err != nil {
		return "", err
	}
	files = append(files, filepath.Join(src, "go.mod"), filepath.Join(src, "go.sum"))
	sort.Strings(files)
	h := sha256.New()
	fmt.Fprintln(h, runtime.GOOS, runtime.GOARCH, goVersion())
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		fmt.Fprintln(h, filepath.Base(f), len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// goVersion is the toolchain `go build` will use (not the one that built us).
func goVersion() string {
	out, err := exec.Command("go", "env", "GOVERSION").Output()
	if err != nil {
		return runtime.Version()
	}
	return string(out)
}

// CacheDir is $SOLBEHAVE_CACHE, or ~/.cache/solbehave.
func CacheDir() string {
	if d := os.Getenv("SOLBEHAVE_CACHE"); d != "" {
		return d
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return filepath.Join(os.TempDir(), "solbehave-cache")
	}
	return filepath.Join(home, ".cache", "solbehave")
}
