package solc

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// memoCheck drives worker.js's memoizeTableGet on real tables of a two-
// function wasm module: every answer must be the one V8's own get gives,
// through set (emscripten's addFunction), grow and a second table.
const memoCheck = `
const { memoizeTableGet } = require('./worker.js');
const wasm = new Uint8Array([0,0x61,0x73,0x6d,1,0,0,0, 1,5,1,0x60,0,1,0x7f, 3,3,2,0,0,
  7,9,2,1,0x61,0,0,1,0x62,0,1, 0xa,0xb,2,4,0,0x41,1,0xb,4,0,0x41,2,0xb]);
const { a, b } = new WebAssembly.Instance(new WebAssembly.Module(wasm)).exports;
const T = WebAssembly.Table;
const own = T.prototype.get;
const t1 = new T({ element: 'anyfunc', initial: 2 });
const t2 = new T({ element: 'anyfunc', initial: 2 });
t1.set(0, a);
t2.set(0, b);
memoizeTableGet(T);
const want = (ok, what) => { if (!ok) { console.error('memo: ' + what); process.exit(1); } };
want(T.prototype.get !== own, 'get not replaced');
want(t1.get(0) === a && t2.get(0) === b, 'two tables share entries');
want(t1.get(1) === null, 'an empty slot is not null');
t1.set(0, b);
want(t1.get(0) === b, 'a slot read before set answers its old function');
t1.set(1, a);
want(t1.get(1) === a, 'an empty slot read before set stays empty');
t1.grow(1);
want(t1.get(2) === null, 'a grown slot is not empty');
t1.set(2, a);
want(t1.get(2) === a && t1.get(2)() === 1, 'a grown slot keeps its first answer');
for (const t of [t1, t2]) for (let i = 0; i < t.length; i++) want(t.get(i) === own.call(t, i), 'differs from V8 at ' + i);
console.log('ok');
`

func TestMemoizeTableGet(t *testing.T) {
	needNode(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "worker.js"), workerJS, 0o644); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "check.js")
	if err := os.WriteFile(script, []byte(memoCheck), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("node", script).CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "ok" {
		t.Fatalf("%v: %s", err, out)
	}
}

// TestTableMemoKeepsOutputs compiles the same inputs on a 0.8 worker with
// the memo (the default) and without (PlainTable): a source that compiles,
// a larger optimised one, one that fails type checking and one that imports
// a missing file (the wrapper's import callback, added to the table per
// compile) must give equal outputs or equal errors, in one worker's order.
func TestTableMemoKeepsOutputs(t *testing.T) {
	needNode(t)
	inputs := []Input{
		{Compiler: "0.8.19", Sources: map[string]string{"k.sol": srcSimple08}},
		{Compiler: "0.8.19", Sources: map[string]string{"big.sol": bigContract(12)}, Optimize: true},
		{Compiler: "0.8.19", Sources: map[string]string{"bad.sol": "pragma solidity ^0.8.0; contract B { function f() public { uint8 x = 256; } }"}},
		{Compiler: "0.8.19", Sources: map[string]string{"imp.sol": "pragma solidity ^0.8.0; import \"./gone.sol\"; contract I {}"}},
		{Compiler: "0.8.19", Sources: map[string]string{"k.sol": srcSimple08}, Optimize: true},
	}
	run := func(plain bool) (outs []*Output, errs []string) {
		m := NewManager(Options{MaxWorkers: 1, PlainTable: plain})
		defer m.Close()
		for _, in := range inputs {
			out, err := m.Compile(context.Background(), in)
			msg := ""
			if err != nil {
				msg = err.Error()
			}
			outs, errs = append(outs, out), append(errs, msg)
		}
		return outs, errs
	}
	memoOuts, memoErrs := run(false)
	plainOuts, plainErrs := run(true)
	if memoErrs[0] != "" || memoErrs[1] != "" || memoErrs[2] == "" || memoErrs[3] == "" {
		t.Fatalf("the inputs did not exercise what they should: errors %q", memoErrs)
	}
	for i := range inputs {
		if memoErrs[i] != plainErrs[i] {
			t.Errorf("input %d: error %q with the memo, %q without", i, memoErrs[i], plainErrs[i])
		}
		if !reflect.DeepEqual(memoOuts[i], plainOuts[i]) {
			t.Errorf("input %d: outputs differ with and without the memo", i)
		}
	}
}
