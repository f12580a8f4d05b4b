package solc

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/vm/runtime"

	"github.com/solbehave/solbehave/internal/solast"
	"github.com/solbehave/solbehave/internal/walltime"
)

func compile(t *testing.T, m *Manager, in Input) *Output {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	start := time.Now()
	out, err := m.Compile(ctx, in)
	if err != nil {
		t.Fatalf("Compile(%s): %v", in.Compiler, err)
	}
	t.Logf("compile %s (%s): %s", in.Compiler, out.CompilerUsed, time.Since(start).Round(time.Millisecond))
	return out
}

// checkContract asserts C came out whole: ABI, both codes, and an AST of the
// expected form that solast reads back with C's functions in it.
func checkContract(t *testing.T, out *Output, wantLegacy bool) *Contract {
	t.Helper()
	c, err := out.Contract("C")
	if err != nil {
		t.Fatal(err)
	}
	var entries []map[string]any
	if err := json.Unmarshal(c.ABI, &entries); err != nil || len(entries) < 5 {
		t.Fatalf("ABI: %d entries, %v", len(entries), err)
	}
	if len(c.Creation) < 100 || len(c.Runtime) < 100 || c.SourceMap == "" || c.RuntimeSourceMap == "" {
		t.Fatalf("empty code or source map: creation %d runtime %d", len(c.Creation), len(c.Runtime))
	}
	src := out.Sources["c.sol"]
	if src == nil || src.LegacyAST != wantLegacy {
		t.Fatalf("source c.sol: %+v, want legacy=%v", src, wantLegacy)
	}
	root, err := solast.Parse(src.AST)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, k := range solast.Contracts(root) {
		names = append(names, k.Name)
	}
	if strings.Join(names, ",") != "L,C" {
		t.Fatalf("AST contracts %v", names)
	}
	return c
}

func TestCompile0424(t *testing.T) {
	m := testManager(t)
	out := compile(t, m, Input{Compiler: "v0.4.24+commit.e67f0147", Sources: map[string]string{"c.sol": src04}, Optimize: true, Runs: 200})
	if !strings.HasPrefix(out.CompilerUsed, "0.4.24+commit.e67f0147") || out.CompilerRequested != "v0.4.24+commit.e67f0147" {
		t.Fatalf("used %q requested %q", out.CompilerUsed, out.CompilerRequested)
	}
	c := checkContract(t, out, false)
	if c.StorageLayout != nil {
		t.Error("0.4.24 has no storage layout output")
	}
	if len(out.Warnings) == 0 {
		t.Error("0.4.24 warns about the old constructor; no warnings came back")
	}
}

func TestCompile08(t *testing.T) {
	m := testManager(t)
	out := compile(t, m, Input{Compiler: "0.8.19", Sources: map[string]string{"c.sol": src08}, EVMVersion: "paris"})
	c := checkContract(t, out, false)
	if !json.Valid(c.StorageLayout) || !strings.Contains(string(c.StorageLayout), `"label":"x"`) {
		t.Fatalf("storage layout %s", c.StorageLayout)
	}
	if c.LinkReferences["c.sol"]["L"] == nil || c.RuntimeLinkReferences["c.sol"]["L"] == nil {
		t.Fatalf("link references %v / %v", c.LinkReferences, c.RuntimeLinkReferences)
	}
}

func TestCompile049LegacyOnly(t *testing.T) {
	m := testManager(t)
	out := compile(t, m, Input{Compiler: "v0.4.9+commit.364da425", Sources: map[string]string{"c.sol": src04}})
	if !strings.HasPrefix(out.CompilerUsed, "0.4.9+") {
		t.Fatalf("used %q", out.CompilerUsed)
	}
	c := checkContract(t, out, true)
	if c.LinkReferences["c.sol"]["L"] == nil {
		t.Fatalf("0.4.9 link references %v", c.LinkReferences)
	}
}

func TestNightlyRunsAsItsRelease(t *testing.T) {
	m := testManager(t)
	req := "v0.4.24-nightly.2018.5.16+commit.7f965c86"
	out := compile(t, m, Input{Compiler: req, Sources: map[string]string{"c.sol": src04}})
	if out.CompilerRequested != req || !strings.HasPrefix(out.CompilerUsed, "0.4.24+") {
		t.Fatalf("requested %q used %q", out.CompilerRequested, out.CompilerUsed)
	}
	if out.Release.Version != "0.4.24" || !strings.Contains(out.Release.Substituted, "nightly") {
		t.Fatalf("release %+v", out.Release)
	}
}

func TestAncientVersionSubstituted(t *testing.T) {
	m := testManager(t)
	src := "pragma solidity ^0.4.2;\ncontract Old { uint x; function set(uint v) { x = v; } }\n"
	out := compile(t, m, Input{Compiler: "v0.4.2+commit.af6afb04", Sources: map[string]string{"old.sol": src}})
	if !strings.HasPrefix(out.CompilerUsed, "0.4.26+") || out.Release.Substituted == "" {
		t.Fatalf("used %q release %+v", out.CompilerUsed, out.Release)
	}
	if _, err := out.Contract("Old"); err != nil {
		t.Fatal(err)
	}
}

func TestFixedPackageFor087(t *testing.T) {
	m := testManager(t)
	out := compile(t, m, Input{Compiler: "v0.8.7+commit.e28d00a7", Sources: map[string]string{"k.sol": srcSimple08}})
	if out.Release.Package != "solc@0.8.7-fixed" || !strings.HasPrefix(out.CompilerUsed, "0.8.7+commit.e28d00a7") {
		t.Fatalf("package %s used %q", out.Release.Package, out.CompilerUsed)
	}
}

func TestVersionCheckRejectsWrongSoljson(t *testing.T) {
	m := testManager(t)
	// A release claiming 0.8.7 but served by the 0.8.19 package, as npm's
	// solc@0.8.7 serves a 0.7.5 soljson: the loaded version() must catch it.
	rel := Release{Requested: "0.8.7", Version: "0.8.7", Package: "solc@0.8.19"}
	_, _, err := m.run(context.Background(), rel, []byte(`{}`))
	if !errors.Is(err, ErrVersionMismatch) || !strings.Contains(err.Error(), "0.8.19") {
		t.Fatalf("err = %v, want ErrVersionMismatch naming 0.8.19", err)
	}
}

func TestUnknownVersion(t *testing.T) {
	m := testManager(t)
	for _, v := range []string{"0.4.99", "v0.4.99+commit.00000000", "not-a-version"} {
		_, err := m.Compile(context.Background(), Input{Compiler: v, Sources: map[string]string{"k.sol": srcSimple08}})
		if !errors.Is(err, ErrUnknownVersion) {
			t.Errorf("Compile(%q) = %v, want ErrUnknownVersion", v, err)
		}
	}
	_, err := m.Compile(context.Background(), Input{Sources: map[string]string{"k.sol": "contract A {}"}})
	if !errors.Is(err, ErrUnknownVersion) {
		t.Errorf("no compiler and no pragma: %v", err)
	}
}

func TestSyntaxError(t *testing.T) {
	m := testManager(t)
	for _, c := range []struct{ version, src string }{{"0.8.19", srcSyntaxError08}, {"0.4.24", srcSyntaxError04}, {"0.4.9", srcSyntaxError04}} {
		_, err := m.Compile(context.Background(), Input{Compiler: c.version, Sources: map[string]string{"bad.sol": c.src}})
		var ce *CompileError
		if !errors.As(err, &ce) {
			t.Fatalf("%s: err = %v, want *CompileError", c.version, err)
		}
		first := ce.Diagnostics[0]
		for _, d := range ce.Diagnostics {
			if d.Severity == "error" {
				first = d
				break
			}
		}
		// 0.4.9 predates typed errors: it calls parser errors "Error".
		if (first.Type != "ParserError" && !(c.version == "0.4.9" && first.Type == "Error")) || first.File != "bad.sol" || first.Start <= 0 || !strings.Contains(err.Error(), "Expected") {
			t.Errorf("%s: %q first error %+v", c.version, err, first)
		}
		// The reported offset points at the line of the missing ';'.
		if line := strings.Count(c.src[:first.Start], "\n") + 1; line < 3 || line > 5 {
			t.Errorf("%s: error on line %d", c.version, line)
		}
	}
}

// TestLinkAndRun links L into C, deploys both on go-ethereum's EVM and
// calls through the library: a wrong placeholder replacement fails the call.
func TestLinkAndRun(t *testing.T) {
	m := testManager(t)
	for _, c := range []struct{ version, src string }{{"0.4.24", src04}, {"0.8.19", src08}, {"0.4.9", src04}} {
		t.Run(c.version, func(t *testing.T) {
			out := compile(t, m, Input{Compiler: c.version, Sources: map[string]string{"c.sol": c.src}, Optimize: true})
			lib, _ := out.Contract("L")
			con, _ := out.Contract("C")
			if !strings.Contains(con.Creation, "__") {
				t.Fatal("C has no library placeholder")
			}
			if _, err := con.CreationCode(nil); err == nil || !strings.Contains(err.Error(), "L") {
				t.Fatalf("unlinked CreationCode error = %v, want one naming L", err)
			}
			// The modifier rejects the zero address, runtime's default sender.
			cfg := &runtime.Config{GasLimit: 30_000_000, Origin: common.HexToAddress("0x1234")}
			libCode, err := lib.CreationCode(nil)
			if err != nil {
				t.Fatal(err)
			}
			_, libAddr, _, err := runtime.Create(libCode, cfg)
			if err != nil {
				t.Fatalf("deploy L: %v", err)
			}
			creation, err := con.CreationCode(map[string]common.Address{"L": libAddr})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := con.RuntimeCode(map[string]common.Address{"c.sol:L": libAddr}); err != nil {
				t.Fatalf("RuntimeCode with a qualified name: %v", err)
			}
			parsed, err := abi.JSON(strings.NewReader(string(con.ABI)))
			if err != nil {
				t.Fatal(err)
			}
			args, _ := parsed.Pack("", big.NewInt(7))
			_, addr, _, err := runtime.Create(append(creation, args...), cfg)
			if err != nil {
				t.Fatalf("deploy C: %v", err)
			}
			set, _ := parsed.Pack("set", big.NewInt(41))
			if _, _, err := runtime.Call(addr, set, cfg); err != nil {
				t.Fatalf("set: %v", err)
			}
			get, _ := parsed.Pack("get")
			ret, _, err := runtime.Call(addr, get, cfg)
			if err != nil || new(big.Int).SetBytes(ret).Int64() != 42 {
				t.Fatalf("get() = %x, %v; want 42", ret, err)
			}
		})
	}
}

func TestStandardJSONInput(t *testing.T) {
	m := testManager(t)
	doc := map[string]any{
		"language": "Solidity",
		"sources":  map[string]any{"a/Counter.sol": map[string]any{"content": srcSimple08}},
		"settings": map[string]any{"optimizer": map[string]any{"enabled": true, "runs": 1000}, "outputSelection": map[string]any{"*": map[string]any{"*": []string{"metadata"}}}},
	}
	raw, _ := json.Marshal(doc)
	etherscan := append(append([]byte("{"), raw...), '}') // Etherscan's {{...}}
	out := compile(t, m, Input{Compiler: "0.8.19", StandardJSON: etherscan, Sources: map[string]string{"ignored.sol": "garbage"}})
	c, err := out.Contract("Counter")
	if err != nil || c.File != "a/Counter.sol" || c.Runtime == "" {
		t.Fatalf("contract %+v, %v", c, err)
	}
	if _, err := out.Contract("a/Counter.sol:Counter"); err != nil {
		t.Fatal(err)
	}
	if _, err := out.Contract("Nope"); err == nil {
		t.Fatal("missing contract found")
	}
}

func TestPragmaDerivedCompiler(t *testing.T) {
	m := testManager(t)
	src := "pragma solidity >=0.4.24 <0.4.25;\ncontract P { function f() public pure returns (uint) { return 1; } }\n"
	out := compile(t, m, Input{Sources: map[string]string{"p.sol": src}})
	if out.CompilerRequested != "0.4.24" || !strings.HasPrefix(out.CompilerUsed, "0.4.24+") {
		t.Fatalf("requested %q used %q", out.CompilerRequested, out.CompilerUsed)
	}
}

func TestLastFileWins(t *testing.T) {
	m := testManager(t)
	out := compile(t, m, Input{Compiler: "0.8.19", Sources: map[string]string{
		"a.sol": srcSimple08,
		"b.sol": strings.Replace(srcSimple08, "n += 1", "n += 2", 1),
	}})
	c, err := out.Contract("Counter")
	if err != nil || c.File != "b.sol" {
		t.Fatalf("Contract(Counter) = %v, %v; want the one in b.sol", c, err)
	}
}

func workerPIDs(m *Manager) []int {
	m.pool.mu.Lock()
	defer m.pool.mu.Unlock()
	var pids []int
	for _, w := range m.pool.workers {
		if w.cmd != nil && w.cmd.Process != nil {
			pids = append(pids, w.cmd.Process.Pid)
		}
	}
	return pids
}

func TestWorkerCrashRecovery(t *testing.T) {
	needNode(t)
	m := NewManager(Options{MaxWorkers: 1})
	defer m.Close()
	in := Input{Compiler: "0.8.19", Sources: map[string]string{"k.sol": srcSimple08}}
	compile(t, m, in)
	pids := workerPIDs(m)
	if len(pids) != 1 {
		t.Fatalf("%d workers after a compile, want 1", len(pids))
	}
	compile(t, m, in)
	if again := workerPIDs(m); len(again) != 1 || again[0] != pids[0] {
		t.Fatalf("worker not reused: %v then %v", pids, again)
	}
	// An idle worker that died is replaced without failing the next request.
	killAndWait(t, m, pids[0])
	compile(t, m, in)
	fresh := workerPIDs(m)
	if len(fresh) != 1 || fresh[0] == pids[0] {
		t.Fatalf("no fresh worker after kill: %v", fresh)
	}
	// A worker killed mid-compile fails that request only.
	big := Input{Compiler: "0.8.19", Sources: map[string]string{"big.sol": bigContract(60)}, Optimize: true}
	done := make(chan error, 1)
	go func() { _, err := m.Compile(context.Background(), big); done <- err }()
	waitBusy(t, m)
	syscall.Kill(workerPIDs(m)[0], syscall.SIGKILL)
	if err := <-done; !errors.Is(err, ErrWorkerCrashed) {
		t.Fatalf("in-flight compile on a killed worker: %v, want ErrWorkerCrashed", err)
	}
	compile(t, m, in)
}

// killAndWait kills a worker and waits until its exit has been seen: only
// then is it "idle and dead" rather than dying under a request.
func killAndWait(t *testing.T, m *Manager, pid int) {
	t.Helper()
	m.pool.mu.Lock()
	var w *worker
	for _, x := range m.pool.workers {
		if x.cmd != nil && x.cmd.Process.Pid == pid {
			w = x
		}
	}
	m.pool.mu.Unlock()
	syscall.Kill(pid, syscall.SIGKILL)
	select {
	case <-w.exited:
	case <-time.After(30 * time.Second):
		t.Fatal("killed worker never exited")
	}
}

func waitBusy(t *testing.T, m *Manager) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		m.pool.mu.Lock()
		busy := len(m.pool.workers) == 1 && m.pool.workers[0].busy && m.pool.workers[0].cmd != nil
		m.pool.mu.Unlock()
		if busy {
			time.Sleep(20 * time.Millisecond) // let the request reach the worker
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatal("worker never became busy")
}

// bigContract makes a contract that takes the optimizer a while.
func bigContract(n int) string {
	var b strings.Builder
	b.WriteString("// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;\ncontract Big {\n    mapping(uint => uint) m;\n")
	for i := 0; i < n; i++ {
		b.WriteString(strings.ReplaceAll("    function fN(uint a, uint b) public returns (uint) { for (uint i = 0; i < a; i++) { m[i + N] += b * i + N; } return m[a] / (b + 1); }\n", "N", itoa(i)))
	}
	b.WriteString("}\n")
	return b.String()
}

func itoa(i int) string { return big.NewInt(int64(i)).String() }

func TestContextTimeout(t *testing.T) {
	needNode(t)
	m := NewManager(Options{MaxWorkers: 1})
	defer m.Close()
	in := Input{Compiler: "0.8.19", Sources: map[string]string{"big.sol": bigContract(60)}, Optimize: true}
	// Deadline during worker start-up.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Millisecond)
	_, err := m.Compile(ctx, in)
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("start-up deadline: %v", err)
	}
	// Deadline during a compile on a warm worker.
	compile(t, m, Input{Compiler: "0.8.19", Sources: map[string]string{"k.sol": srcSimple08}})
	ctx, cancel = context.WithTimeout(context.Background(), 30*time.Millisecond)
	start := time.Now()
	_, err = m.Compile(ctx, in)
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 2*time.Second {
		t.Fatalf("compile deadline: %v after %s", err, time.Since(start))
	}
	compile(t, m, Input{Compiler: "0.8.19", Sources: map[string]string{"k.sol": srcSimple08}})
}

func TestPoolEvictsLeastRecentlyUsed(t *testing.T) {
	needNode(t)
	m := NewManager(Options{MaxWorkers: 2})
	defer m.Close()
	src := func(v string) Input {
		return Input{Compiler: v, Sources: map[string]string{"c.sol": src04}}
	}
	compile(t, m, src("0.4.24"))
	compile(t, m, src("0.4.9"))
	compile(t, m, src("0.4.24")) // 0.4.9 is now least recently used
	compile(t, m, src("0.4.26"))
	m.pool.mu.Lock()
	var keys []string
	for _, w := range m.pool.workers {
		keys = append(keys, w.key)
	}
	m.pool.mu.Unlock()
	if len(keys) != 2 || strings.Contains(strings.Join(keys, ","), "0.4.9") {
		t.Fatalf("workers after eviction: %v, want 0.4.24 and 0.4.26", keys)
	}
}

func TestSpawnMode(t *testing.T) {
	needNode(t)
	m := NewManager(Options{Spawn: true})
	defer m.Close()
	out := compile(t, m, Input{Compiler: "0.8.19", Sources: map[string]string{"k.sol": srcSimple08}})
	if _, err := out.Contract("Counter"); err != nil {
		t.Fatal(err)
	}
	if m.pool.size() != 0 {
		t.Fatal("spawn mode kept a worker")
	}
	// An answer far beyond a pipe's 64 KiB buffer arrives whole: the worker
	// exits only after stdout has drained.
	bigOut := compile(t, m, Input{Compiler: "0.8.19", Sources: map[string]string{"big.sol": bigContract(40)}})
	c, err := bigOut.Contract("Big")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(bigOut.Sources["big.sol"].AST) + len(c.Creation) + len(c.SourceMap); n < 256<<10 {
		t.Fatalf("output of %d bytes: the test needs one well over 64 KiB", n)
	}
}

func TestConcurrentCompiles(t *testing.T) {
	needNode(t)
	m := NewManager(Options{MaxWorkers: 2})
	defer m.Close()
	const n = 6
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		go func() {
			src := strings.Replace(srcSimple08, "n += 1", "n += "+itoa(i+1), 1)
			out, err := m.Compile(context.Background(), Input{Compiler: "0.8.19", Sources: map[string]string{"x.sol": src}})
			if err == nil {
				_, err = out.Contract("Counter")
			}
			errs <- err
		}()
	}
	for i := 0; i < n; i++ {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if size := m.pool.size(); size < 1 || size > 2 {
		t.Fatalf("%d workers, want 1..2", size)
	}
}

func TestClosedManager(t *testing.T) {
	needNode(t)
	m := NewManager(Options{})
	m.Close()
	if _, err := m.Compile(context.Background(), Input{Compiler: "0.8.19", Sources: map[string]string{"k.sol": srcSimple08}}); !errors.Is(err, ErrClosed) {
		t.Fatalf("after Close: %v", err)
	}
}

// TestSlowStartIsATimeout: a compiler that does not load within the start-up
// limit fails as the machine's failure (walltime.Error, which the pipeline
// records as a retriable timeout), not as a crashed compiler.
func TestSlowStartIsATimeout(t *testing.T) {
	needNode(t)
	m := NewManager(Options{MaxWorkers: 1, StartupTimeout: time.Millisecond})
	defer m.Close()
	_, err := m.Compile(context.Background(), Input{Compiler: "0.8.19", Sources: map[string]string{"k.sol": srcSimple08}})
	if !walltime.Is(err) || errors.Is(err, ErrWorkerCrashed) {
		t.Fatalf("slow start: %v, want a walltime.Error", err)
	}
}

// Started counts worker processes: a compile on a warm worker of the same
// compiler starts none, another compiler starts one. Youth adds 1/n for a
// compile on a worker that had served n before: a worker's first compile
// adds nothing (its start's), its second 1, its third 1/2.
func TestStartedCountsWorkers(t *testing.T) {
	needNode(t)
	m := NewManager(Options{MaxWorkers: 1})
	defer m.Close()
	in := Input{Compiler: "v0.4.24+commit.e67f0147", Sources: map[string]string{"c.sol": src04}}
	compile(t, m, in)
	if y := m.Youth(); y != 0 {
		t.Errorf("a worker's first compile: youth %g, want 0", y)
	}
	compile(t, m, in)
	compile(t, m, in)
	if n := m.Started(); n != 1 {
		t.Errorf("three compiles on one compiler started %d workers, want 1", n)
	}
	if y := m.Youth(); y != 1.5 {
		t.Errorf("a worker's second and third compiles: youth %g, want 1 + 1/2", y)
	}
	compile(t, m, Input{Compiler: "0.8.19", Sources: map[string]string{"c.sol": src08}})
	if n, y := m.Started(), m.Youth(); n != 2 || y != 1.5 {
		t.Errorf("another compiler: %d workers started, youth %g; want 2 and 1.5 (a new worker's first compile)", n, y)
	}
}

// A Tally counts only the compiles run under its context: one sample's
// compiles, while others run beside them.
func TestTallyCountsItsOwnCompiles(t *testing.T) {
	needNode(t)
	m := NewManager(Options{MaxWorkers: 1})
	defer m.Close()
	in := Input{Compiler: "v0.4.24+commit.e67f0147", Sources: map[string]string{"c.sol": src04}}
	var first, later Tally
	if _, err := m.Compile(WithTally(context.Background(), &first), in); err != nil {
		t.Fatal(err)
	}
	compile(t, m, in) // untallied: the worker's second compile
	for range 2 {     // its third and fourth
		if _, err := m.Compile(WithTally(context.Background(), &later), in); err != nil {
			t.Fatal(err)
		}
	}
	bad := Input{Compiler: in.Compiler, Sources: map[string]string{"c.sol": "contract C { function f() { x = 1; } }"}}
	var failing Tally
	if _, err := m.Compile(WithTally(context.Background(), &failing), bad); err == nil {
		t.Fatal("an undeclared identifier compiled")
	}
	if s, y := first.Figures(); s != 1 || y != 0 {
		t.Errorf("the starting compile: %d starts, youth %g; want 1 and 0", s, y)
	}
	if s, y := later.Figures(); s != 0 || math.Abs(y-(1.0/2+1.0/3)) > 1e-12 {
		t.Errorf("the third and fourth compiles: %d starts, youth %g; want 0 and 1/2 + 1/3", s, y)
	}
	if s, y := failing.Figures(); s != 0 || y != 0.25 {
		t.Errorf("a failing fifth compile: %d starts, youth %g; want 0 and 1/4", s, y)
	}
	if y := m.Youth(); math.Abs(y-(1+1.0/2+1.0/3+1.0/4)) > 1e-12 {
		t.Errorf("the manager's youth %g, want every compile's", y)
	}
}

// With an output cache, the same input compiles once: a second manager over
// the same folder answers it without starting a worker, with the same output.
// Another input, or a kept file that does not match its checksum, is compiled.
func TestOutputCacheAnswersTheSameCompile(t *testing.T) {
	needNode(t)
	dir := t.TempDir()
	in := Input{Compiler: "0.8.19", Sources: map[string]string{"c.sol": src08}}
	first := NewManager(Options{MaxWorkers: 1, OutputCache: dir})
	defer first.Close()
	want := compile(t, first, in)
	if first.Started() != 1 {
		t.Fatalf("the first compile started %d workers, want 1", first.Started())
	}
	second := NewManager(Options{MaxWorkers: 1, OutputCache: dir})
	defer second.Close()
	if got := compile(t, second, in); !reflect.DeepEqual(got.Contracts, want.Contracts) || got.CompilerUsed != want.CompilerUsed {
		t.Fatalf("the cached compile differs from the compile")
	}
	if n := second.Started(); n != 0 {
		t.Fatalf("a cached compile started %d workers, want 0", n)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*"))
	if len(files) != 1 {
		t.Fatalf("one compile kept %d files, want 1", len(files))
	}
	os.WriteFile(files[0], []byte("0000 "+want.CompilerUsed+"\n{}"), 0o644)
	if got := compile(t, second, in); !reflect.DeepEqual(got.Contracts, want.Contracts) || second.Started() != 1 {
		t.Fatalf("a damaged file was taken: %d workers started", second.Started())
	}
	compile(t, second, Input{Compiler: "0.8.19", Sources: map[string]string{"d.sol": src08}})
	if files, _ := filepath.Glob(filepath.Join(dir, "*", "*")); len(files) != 2 {
		t.Fatalf("two inputs kept %d files, want 2", len(files))
	}
}
