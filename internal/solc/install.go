package solc

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/solbehave/solbehave/internal/atomicfile"
	"github.com/solbehave/solbehave/internal/failure"
)

// ErrInstall wraps failures to fetch or unpack a compiler from npm.
var ErrInstall = errors.New("solc: install failed")

//go:embed worker/worker.js
var workerJS []byte

// installer puts npm packages under <cache>/solc. Every install goes to a
// fresh temporary folder that is renamed into place when complete, so a
// folder that exists is whole, and two processes racing for the same version
// both end up using the winner's copy.
type installer struct {
	root string // <cache>/solc
	npm  string
	logf func(string, ...any)

	mu    sync.Mutex
	locks map[string]*sync.Mutex // one per package, so one process installs it once
}

func newInstaller(cacheDir, npm string, logf func(string, ...any)) *installer {
	return &installer{root: filepath.Join(cacheDir, "solc"), npm: npm, logf: logf, locks: map[string]*sync.Mutex{}}
}

func defaultCacheDir() string {
	if d := os.Getenv("SOLBEHAVE_CACHE"); d != "" {
		return d
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "solbehave")
	}
	return filepath.Join(os.TempDir(), "solbehave-cache")
}

func (in *installer) lock(key string) func() {
	in.mu.Lock()
	l, ok := in.locks[key]
	if !ok {
		l = &sync.Mutex{}
		in.locks[key] = l
	}
	in.mu.Unlock()
	l.Lock()
	return l.Unlock
}

// soljson returns the path of the soljson.js of an npm spec ("solc@0.4.24"),
// installing it first if needed.
func (in *installer) soljson(ctx context.Context, spec string) (string, error) {
	version := strings.TrimPrefix(spec, "solc@")
	final := filepath.Join(in.root, version)
	want := filepath.Join(final, "soljson.js")
	return want, in.ensure(ctx, spec, final, want, func(dir string) error {
		return in.packSoljson(ctx, spec, version, dir)
	})
}

// wrapper returns the path of the wrapper.js of WrapperPackage.
func (in *installer) wrapper(ctx context.Context) (string, error) {
	final := filepath.Join(in.root, "wrapper-"+strings.TrimPrefix(WrapperPackage, "solc@"))
	want := filepath.Join(final, "node_modules", "solc", "wrapper.js")
	return want, in.ensure(ctx, WrapperPackage, final, want, func(dir string) error {
		return in.npmRun(ctx, in.root, WrapperPackage, "install", "--prefix", dir, "--no-save", "--ignore-scripts",
			"--no-audit", "--no-fund", "--omit=dev", "--no-package-lock", WrapperPackage)
	})
}

// workerScript writes the embedded worker once per content hash.
func (in *installer) workerScript() (string, error) {
	sum := sha256.Sum256(workerJS)
	path := filepath.Join(in.root, "worker-"+hex.EncodeToString(sum[:6])+".js")
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	if err := atomicfile.WriteFile(path, workerJS, 0o644); err != nil {
		return "", fmt.Errorf("%w: %v", ErrInstall, err)
	}
	return path, nil
}

// ensure makes final exist (checked through the file want), building it in
// a temporary folder with build and renaming it into place.
func (in *installer) ensure(ctx context.Context, spec, final, want string, build func(dir string) error) error {
	if fileExists(want) {
		return nil
	}
	defer in.lock(spec)()
	if fileExists(want) {
		return nil
	}
	if err := os.MkdirAll(in.root, 0o755); err != nil {
		return cacheFailed(err)
	}
	tmp, err := os.MkdirTemp(in.root, ".install-"+strings.TrimPrefix(spec, "solc@")+"-")
	if err != nil {
		return cacheFailed(err)
	}
	defer os.RemoveAll(tmp)
	start := time.Now()
	dir := filepath.Join(tmp, "pkg")
	if err := build(dir); err != nil {
		return err
	}
	if err := in.moveIntoPlace(dir, final, want); err != nil {
		return cacheFailed(err)
	}
	if in.logf != nil {
		in.logf("solc: installed %s in %s", spec, time.Since(start).Round(time.Millisecond))
	}
	return nil
}

func (in *installer) moveIntoPlace(dir, final, want string) error {
	err := os.Rename(dir, final)
	if err == nil || fileExists(want) { // lost a race: the winner's copy is whole
		return nil
	}
	// A leftover folder without the wanted file (not made by this code):
	// move it aside and retry once.
	if _, statErr := os.Stat(final); statErr == nil {
		aside := final + ".broken-" + fmt.Sprint(time.Now().UnixNano())
		if os.Rename(final, aside) == nil {
			os.RemoveAll(aside)
			if err = os.Rename(dir, final); err == nil || fileExists(want) {
				return nil
			}
		}
	}
	return fmt.Errorf("%w: moving into %s: %v", ErrInstall, final, err)
}

// packSoljson fetches the package tarball with `npm pack` (no dependency
// tree: only soljson.js is needed) and unpacks soljson.js and package.json.
func (in *installer) packSoljson(ctx context.Context, spec, version, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("%w: %v", ErrInstall, err)
	}
	dl := filepath.Dir(dir)
	if err := in.npmRun(ctx, dl, spec, "pack", spec, "--pack-destination", dl, "--loglevel=error"); err != nil {
		return err
	}
	tgz, err := filepath.Glob(filepath.Join(dl, "*.tgz"))
	if err != nil || len(tgz) != 1 {
		return fmt.Errorf("%w: npm pack %s left %d tarballs", ErrInstall, spec, len(tgz))
	}
	if err := extractSoljson(tgz[0], dir); err != nil { // a download cut short
		return failure.New(failure.Network, true, fmt.Errorf("%w: %s: %v", ErrInstall, spec, err))
	}
	return checkPackageVersion(filepath.Join(dir, "package.json"), version)
}

func extractSoljson(tgzPath, dir string) error {
	f, err := os.Open(tgzPath)
	if err != nil {
		return err
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return err
	}
	tr := tar.NewReader(gz)
	found := map[string]bool{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		name := filepath.Base(h.Name)
		if h.Name != "package/"+name || (name != "soljson.js" && name != "package.json") {
			continue
		}
		if err := writeFile(filepath.Join(dir, name), tr); err != nil {
			return err
		}
		found[name] = true
	}
	if !found["soljson.js"] || !found["package.json"] {
		return errors.New("tarball lacks package/soljson.js or package/package.json")
	}
	return nil
}

func writeFile(path string, r io.Reader) error {
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, r); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

func checkPackageVersion(path, want string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrInstall, err)
	}
	var pkg struct{ Version string }
	if err := json.Unmarshal(data, &pkg); err != nil || pkg.Version != want {
		return fmt.Errorf("%w: package.json says version %q, want %q", ErrInstall, pkg.Version, want)
	}
	return nil
}

// npmRun runs npm quietly; a missing version maps to ErrUnknownVersion.
func (in *installer) npmRun(ctx context.Context, dir, spec string, args ...string) error {
	cmd := exec.CommandContext(ctx, in.npm, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "npm_config_update_notifier=false", "npm_config_fund=false", "npm_config_audit=false")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	msg := tail(out.String(), 600)
	if strings.Contains(msg, "notarget") || strings.Contains(msg, "ETARGET") || strings.Contains(msg, "E404") || strings.Contains(msg, "No matching version") {
		return fmt.Errorf("%w: npm has no %s: %s", ErrUnknownVersion, spec, msg)
	}
	// The registry did not answer as it should (unreachable, reset, 5xx):
	// the same install may work on the next run.
	return failure.New(failure.Network, true, fmt.Errorf("%w: npm %s: %v: %s", ErrInstall, strings.Join(args, " "), err, msg))
}

// cacheFailed is an install that the compiler cache's disk refused (full,
// read-only): retried on the next run, as a storage failure.
func cacheFailed(err error) error {
	if !errors.Is(err, ErrInstall) {
		err = fmt.Errorf("%w: %w", ErrInstall, err)
	}
	return failure.New(failure.Storage, true, err)
}

func fileExists(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}

func tail(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}
