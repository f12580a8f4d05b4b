package solc

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"

	"github.com/solbehave/solbehave/internal/atomicfile"
)

// CompileCacheEnv names a folder where the engines of a run keep every
// compiler output, keyed by the compiler release and the whole standard-JSON
// input (see Options.OutputCache). `make test` sets it to a folder of its own
// for one invocation: its packages compile the same demo contracts many times.
const CompileCacheEnv = "SOLBEHAVE_COMPILE_CACHE"

// outputCache keeps solc's raw outputs in a folder, one file per input: a
// line with the output's sha256 and the version the worker reported, then
// the output. A compile's output is a function of the compiler and its
// input, so a hit is the compile itself; a worker's failures (crashes,
// timeouts) are never kept, and a file that does not match its sha256 is a
// miss.
type outputCache string

func (c outputCache) path(pkg string, input []byte) string {
	h := sha256.New()
	h.Write([]byte(pkg))
	h.Write([]byte{0})
	h.Write(input)
	sum := hex.EncodeToString(h.Sum(nil))
	return filepath.Join(string(c), sum[:2], sum)
}

// get returns the output and version kept for input, if any.
func (c outputCache) get(pkg string, input []byte) (out []byte, version string, ok bool) {
	if c == "" {
		return nil, "", false
	}
	data, err := os.ReadFile(c.path(pkg, input))
	if err != nil {
		return nil, "", false
	}
	header, out, found := bytes.Cut(data, []byte{'\n'})
	sum, v, _ := strings.Cut(string(header), " ")
	if !found || v == "" || sum != digest(out) {
		return nil, "", false
	}
	return out, v, true
}

func digest(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// put keeps out; a cache that cannot be written only costs the next compile.
func (c outputCache) put(pkg string, input, out []byte, version string) {
	if c == "" || version == "" {
		return
	}
	data := append([]byte(digest(out)+" "+version+"\n"), out...)
	_ = atomicfile.WriteFile(c.path(pkg, input), data, 0o644)
}
