package solc

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"
)

// Options configure a Manager; the zero value means defaults.
type Options struct {
	CacheDir   string // default $SOLBEHAVE_CACHE, else the user cache dir + /solbehave (~/.cache/solbehave)
	MaxWorkers int    // live Node workers in all, default 2
	Spawn      bool   // baseline: one Node process per compile instead of persistent workers
	// NoLiftoff starts the workers with V8's optimizing WebAssembly compiler
	// from a function's first call (node --no-liftoff): a worker's next few
	// compiles cost 10-25% less CPU, its first (start included) 1.2-2.4 s
	// more (stages/verify's BenchmarkWorkerTiering), and a long-warm worker's
	// the same as without it (BenchmarkWorkerWarmup's last pass: V8's dynamic
	// tiering has optimised the hot code by then). Off by default: it moves
	// the warm-up into the start and saves nothing at any run's size.
	NoLiftoff bool
	// PlainTable leaves V8's WebAssembly.Table.prototype.get as it is in the
	// workers: the baseline of the lookup memo worker.js installs (see
	// memoizeTableGet there), for benchmarks; off, a long-warm worker's
	// compile with a 0.8.2+ soljson costs about a third less CPU.
	PlainTable bool
	Node       string // default "node"
	// OutputCache, when set, is a folder that keeps every compile's output
	// by compiler release and standard-JSON input, and answers the same
	// compile again from it without a worker (CompileCacheEnv). Off by
	// default: a run's recorded costs are then its compiles' own.
	OutputCache string
	Npm         string // default "npm"
	// StartupTimeout bounds loading a soljson (about 0.4 s when warm);
	// default DefaultStartupTimeout. A slow start is the machine's, not the
	// source's: it fails as a walltime.Error (a retriable timeout), never as
	// a compile error.
	StartupTimeout time.Duration
	// Logf, when set, receives one line per install (package and time taken).
	Logf func(format string, args ...any)
}

// Input is one compile job.
type Input struct {
	Compiler string            // as requested (Etherscan CompilerVersion, bare version); "" = from the sources' pragmas
	Sources  map[string]string // file name -> content
	// StandardJSON, when set, is a complete standard-JSON input (Etherscan's
	// `{{...}}` form may keep its doubled braces). Its sources replace
	// Sources and its settings are kept, except outputSelection; Optimize,
	// Runs and EVMVersion apply only where its settings leave them out.
	StandardJSON []byte
	Optimize     bool
	Runs         int                          // default 200
	EVMVersion   string                       // "" = the compiler's default
	Libraries    map[string]map[string]string // file -> library name -> 0x address (linked by solc)
	// Targets, when set, names the contracts the caller deploys ("Name" or
	// "file:Name"): only they and the libraries the sources declare (which a
	// target may link) get bytecode; every contract keeps its ABI and storage
	// layout. A verified source carries many contracts beside the deployed
	// one (bases, interfaces, helpers), and their code generation is CPU
	// spent for nothing; a target's code is the same either way.
	Targets []string
	// NoASTs leaves the syntax trees out (each Source keeps only its ID): a
	// regenerated sample is deployed and called, never analysed, and writing
	// a large source's trees is about a quarter of its compile.
	NoASTs bool
}

// Output is what a compile produced.
type Output struct {
	CompilerRequested string                          // Input.Compiler, or the release chosen from the pragmas when that was ""
	CompilerUsed      string                          // what the loaded compiler's version() reported
	Release           Release                         // how the request was mapped to an npm release
	Contracts         map[string]map[string]*Contract // file -> contract name
	Sources           map[string]*Source              // file -> source unit
	Warnings          []Diagnostic                    // warnings and infos (errors end in *CompileError)
}

// Source is one compiled source unit.
type Source struct {
	ID        int
	AST       json.RawMessage // compact AST where the compiler gives one, else the legacy AST
	LegacyAST bool            // AST is in legacy (name/attributes/children) form
}

// Diagnostic is one compiler message.
type Diagnostic struct {
	Severity  string // "error", "warning", "info"
	Type      string // e.g. "ParserError", "TypeError", "Warning"
	Message   string
	Formatted string
	File      string
	Start     int // byte offsets in File; -1 when unknown
	End       int
}

// CompileError is returned when solc reports errors.
type CompileError struct {
	Compiler    string // version() of the compiler that reported them
	Diagnostics []Diagnostic
}

func (e *CompileError) Error() string {
	var errs []Diagnostic
	for _, d := range e.Diagnostics {
		if d.Severity == "error" {
			errs = append(errs, d)
		}
	}
	if len(errs) == 0 {
		return "solc " + e.Compiler + ": compilation failed"
	}
	msg := fmt.Sprintf("solc %s: %s", e.Compiler, errs[0].short())
	if len(errs) > 1 {
		msg += fmt.Sprintf(" (and %d more errors)", len(errs)-1)
	}
	return msg
}

func (d Diagnostic) short() string {
	if d.Formatted != "" {
		return strings.TrimSpace(strings.SplitN(strings.TrimSpace(d.Formatted), "\n", 2)[0])
	}
	return strings.TrimSpace(d.Type + ": " + d.Message)
}

// LinkRef is one library address slot, in bytes of the binary code.
type LinkRef struct{ Start, Length int }

// Contract is one compiled contract.
type Contract struct {
	File, Name       string
	ABI              json.RawMessage
	Creation         string // hex without 0x; may hold library placeholders
	Runtime          string
	SourceMap        string
	RuntimeSourceMap string
	StorageLayout    json.RawMessage                 // nil before solc 0.5.13
	LinkReferences   map[string]map[string][]LinkRef // file -> library -> slots in Creation
	// RuntimeLinkReferences are the slots in Runtime.
	RuntimeLinkReferences map[string]map[string][]LinkRef
}

// Contract finds a contract by name across files ("file:Name" also works).
// When several files define it, the one in the last file (highest source
// ID) wins.
func (o *Output) Contract(name string) (*Contract, error) {
	if i := strings.LastIndex(name, ":"); i >= 0 {
		if c := o.Contracts[name[:i]][name[i+1:]]; c != nil {
			return c, nil
		}
		return nil, fmt.Errorf("solc: no contract %q in the output (have %s)", name, strings.Join(o.contractNames(), ", "))
	}
	var found *Contract
	for _, file := range o.filesInOrder() {
		if c := o.Contracts[file][name]; c != nil {
			found = c
		}
	}
	if found == nil {
		return nil, fmt.Errorf("solc: no contract %q in the output (have %s)", name, strings.Join(o.contractNames(), ", "))
	}
	return found, nil
}

func (o *Output) filesInOrder() []string {
	files := make([]string, 0, len(o.Contracts))
	for f := range o.Contracts {
		files = append(files, f)
	}
	id := func(f string) int {
		if s := o.Sources[f]; s != nil {
			return s.ID
		}
		return -1
	}
	sort.Slice(files, func(i, j int) bool {
		if id(files[i]) != id(files[j]) {
			return id(files[i]) < id(files[j])
		}
		return files[i] < files[j]
	})
	return files
}

func (o *Output) contractNames() []string {
	var names []string
	for _, f := range o.filesInOrder() {
		for n := range o.Contracts[f] {
			names = append(names, f+":"+n)
		}
	}
	sort.Strings(names)
	if len(names) == 0 {
		return []string{"none"}
	}
	return names
}

// ASTs is each source unit's AST by file, what solast.ParseProgram reads.
func (o *Output) ASTs() map[string]json.RawMessage {
	out := make(map[string]json.RawMessage, len(o.Sources))
	for file, s := range o.Sources {
		out[file] = s.AST
	}
	return out
}
