package vuln

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ethereum/go-ethereum/core/vm"

	"github.com/solbehave/solbehave/internal/bytecode"
	"github.com/solbehave/solbehave/internal/deploy/deploytest"
	"github.com/solbehave/solbehave/internal/solc"
	engine "github.com/solbehave/solbehave/internal/vuln"
	"github.com/solbehave/solbehave/schemas"
)

// TestParseSourceMap: empty fields repeat the previous entry's, and byte
// offsets map to 1-based lines.
func TestParseSourceMap(t *testing.T) {
	got := parseSourceMap("0:10:0:-;12:3;;:5:-1;20")
	want := []srcEntry{{0, 10, 0}, {12, 3, 0}, {12, 3, 0}, {12, 5, -1}, {20, 5, -1}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parseSourceMap = %v, want %v", got, want)
	}
	starts := lineStarts("ab\ncd\n\nef")
	for off, line := range map[int]int{0: 1, 2: 1, 3: 2, 6: 3, 7: 4, 8: 4} {
		if got := lineOf(starts, off); got != line {
			t.Errorf("lineOf(%d) = %d, want %d", off, got, line)
		}
	}
}

// TestExploitableSnippets: a send/transfer reentrancy and a time read
// never branched on (or in a view function) are apart; a call.value
// reentrancy and a time branch are not.
func TestExploitableSnippets(t *testing.T) {
	for _, c := range []struct {
		class engine.Class
		text  string
		want  bool
	}{
		{engine.Reentrancy, "if (!(msg.sender.send(10 ether))) { revert(); }\ncounter += 1;", false},
		{engine.Reentrancy, "msg.sender.transfer(v);\nredeemable[msg.sender] = 0;", false},
		{engine.Reentrancy, "(bool ok,) = msg.sender.call.value(b[msg.sender])(\"\");\nif (ok) b[msg.sender] = 0;", false},
		{engine.Reentrancy, "require(b[msg.sender] >= w);\n(bool ok,)= msg.sender.call.value(w)(\"\");\nb[msg.sender] -= w;", false},
		{engine.Reentrancy, "(bool ok,) = msg.sender.call.value(1 ether)(\"\");\nif (!ok) revert();\nnotCalled = false;", true},
		{engine.BlockState, "uint256 bugv_tmstmp4 = block.timestamp;", false},
		{engine.BlockState, "function bug_tmstmp13() view public returns (bool) {\nreturn block.timestamp >= 1546300800;", false},
		{engine.BlockState, "uint _vtime = block.timestamp;\nif (startTime + (5 * 1 days) == _vtime) {", true},
		{engine.Arithmetic, "lockTime[msg.sender] += _secondsToIncrease;", true},
	} {
		if got, _ := exploitable(c.class, c.text, c.text); got != c.want {
			t.Errorf("exploitable(%s, %q) = %v, want %v", c.class, c.text, got, c.want)
		}
	}
	// The same withdrawal is exploitable once some code credits the mapping
	// (a deposit), not when the only writes are debits, zeroes or tests.
	withdraw := "(bool ok,) = msg.sender.call.value(b[msg.sender])(\"\");\nif (ok) b[msg.sender] = 0;"
	for source, want := range map[string]bool{
		withdraw + "\nfunction deposit() public payable { b[msg.sender] += msg.value; }":        true,
		withdraw + "\nfunction set(uint v) public { b[msg.sender] = v; }":                       true,
		withdraw + "\nfunction f() public { b[msg.sender] -= 1; require(b[msg.sender] == 0); }": false,
	} {
		if got, _ := exploitable(engine.Reentrancy, withdraw, source); got != want {
			t.Errorf("withdrawal in %q: exploitable %v, want %v", source, got, want)
		}
	}
}

// TestSolidiFIBugRows reads the shared SolidiFI corpus through the labelled
// corpus path: every injected bug is one vuln_bug_labels row of a judged
// class, and the send-only reentrancy snippets are set apart.
func TestSolidiFIBugRows(t *testing.T) {
	corpus := filepath.Join("..", "..", "..", "shared", "vulns", "solidifi")
	if _, err := os.Stat(filepath.Join(corpus, "vulnerabilities.json")); err != nil {
		t.Skipf("no SolidiFI corpus at %s (../shared absent): %v", corpus, err)
	}
	if !isSmartBugs(corpus) {
		t.Fatal("the SolidiFI corpus is not read as a labelled corpus")
	}
	files, err := readSmartBugs(corpus)
	if err != nil {
		t.Fatal(err)
	}
	bugs, apart := 0, map[string]int{}
	for _, f := range files {
		for _, row := range f.bugRows() {
			bugs++
			if !row.Exploitable {
				apart[row.Class]++
			}
		}
	}
	if bugs != 2788 {
		t.Errorf("%d bugs in %d files, want SolidiFI's 2,788", bugs, len(files))
	}
	if apart[string(engine.Reentrancy)] == 0 || apart[string(engine.BlockState)] == 0 || apart[string(engine.Arithmetic)] != 0 {
		t.Errorf("non-exploitable snippets per class %v: want some reentrancy and block state, no arithmetic", apart)
	}
	// SolidiFI's 921 reentrancy snippets: 653 pay with send or transfer, 208
	// pay from a mapping no code credits; 60 pay a fixed amount or the
	// contract's balance.
	if n := apart[string(engine.Reentrancy)]; n != 653+208 {
		t.Errorf("%d reentrancy snippets set apart, want 861 (653 stipend-bound, 208 paying from an uncredited mapping)", n)
	}
}

// TestSiteMapperLines: a real compile's runtime source map takes a store's
// program counter to its statement's line, and the called function to its
// definition's lines (real solc, real EVM deployment).
func TestSiteMapperLines(t *testing.T) {
	const src = "pragma solidity ^0.4.24;\ncontract Counter {\n    uint256 public n;\n    function bump(uint256 k) public {\n        n = n + k;\n    }\n}\n"
	release, err := solc.PragmaRelease(src)
	if err != nil {
		t.Fatal(err)
	}
	out := deploytest.Compile(t, solc.Input{Compiler: release, Sources: map[string]string{"Counter.sol": src}})
	c, err := out.Contract("Counter")
	if err != nil {
		t.Fatal(err)
	}
	target, err := engine.DeployStandalone(out, c, engine.BlockFor(out.Release.Version))
	if err != nil {
		t.Fatal(err)
	}
	code := target.Chain.Code(target.Address)
	m := newSiteMapper(out, c, "Counter.sol", src, code)
	var store uint64
	stores := 0
	for _, in := range bytecode.DisassembleRaw(code) {
		if in.Op == vm.SSTORE {
			store = in.PC
			stores++
		}
	}
	if stores != 1 {
		t.Fatalf("%d SSTOREs in Counter, want 1", stores)
	}
	rows := m.rows(schemas.VulnRun{ContractID: "C"}, &engine.Report{Sites: []engine.Site{{Class: engine.Arithmetic, Function: "bump(uint256)", PCs: []uint64{store}}}})
	if len(rows) != 1 || rows[0].Lines != "[5]" || rows[0].FunctionFirst != 4 || rows[0].FunctionLast != 6 {
		t.Errorf("site rows %+v, want the store on line 5 in bump's lines 4-6", rows)
	}
}
