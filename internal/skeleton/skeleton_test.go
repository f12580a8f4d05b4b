package skeleton_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/solbehave/solbehave/internal/skeleton"
	"github.com/solbehave/solbehave/internal/solast"
	"github.com/solbehave/solbehave/internal/solc"
	"github.com/solbehave/solbehave/internal/soltext"
	"github.com/solbehave/solbehave/internal/stagetest"
)

var (
	mgrOnce sync.Once
	mgr     *solc.Manager
)

func compiler(t *testing.T) *solc.Manager {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed: solc cannot run")
	}
	mgrOnce.Do(func() { mgr = solc.NewManager(solc.Options{}) })
	return mgr
}

func compile(t *testing.T, version string, files map[string]string) (*solc.Output, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	return compiler(t).Compile(ctx, solc.Input{Compiler: version, Sources: files})
}

func build(t *testing.T, version, file, target, src string) *skeleton.Skeleton {
	t.Helper()
	out, err := compile(t, version, map[string]string{file: src})
	if err != nil {
		t.Fatalf("original does not compile: %v", err)
	}
	root, err := solast.Parse(out.Sources[file].AST)
	if err != nil {
		t.Fatal(err)
	}
	sk, err := skeleton.Build(skeleton.Input{Files: map[string]string{file: src}, File: file, Target: target, ASTs: map[string]*solast.Node{file: root}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return sk
}

const vault04 = `pragma solidity ^0.4.24;

// A library the target uses; its comments go, its body stays.
library SafeSub {
    function sub(uint a, uint b) internal pure returns (uint) { require(b <= a); return a - b; } // trailing
}

/** @title Vault: the paper's Figure 1 */
contract Vault {
    uint256 public balance; // the balance
    bool public initialized;
    string public url = "https://example.org/*not-a-comment*/"; // a string with comment markers

    /// @notice Initialise the vault.
    function initialize() public {
        balance = 0; // reset
        initialized = true;
    }

    /* deposit */ function deposit(uint256 amount) public /* inline */ {
        balance += amount;
    }

    function withdraw(uint256 amount) public returns (bool ok) {
        require(initialized, "not // initialized");
        balance = SafeSub.sub(balance, amount); /* block */
        return true;
    }

    function helper(uint x) internal pure returns (uint) { return x + 1; }
}
`

func TestBuildVault(t *testing.T) {
	sk := build(t, "0.4.24", "Vault.sol", "Vault", vault04)
	if len(sk.Functions) != 4 || len(sk.Holes()) != 4 {
		t.Fatalf("functions %+v", sk.Functions)
	}
	for _, bad := range []string{"reset", "inline", "Figure 1", "trailing", "balance = 0", "Initialise"} {
		if strings.Contains(sk.Files[sk.File], bad) {
			t.Errorf("skeleton still holds %q", bad)
		}
	}
	for _, keep := range []string{"function sub(uint a, uint b) internal pure returns (uint) { require(b <= a); return a - b; }",
		`"https://example.org/*not-a-comment*/"`, "uint256 public balance;"} {
		if !strings.Contains(sk.Files[sk.File], keep) {
			t.Errorf("skeleton lost %q", keep)
		}
	}
	if n := strings.Count(sk.Files[sk.File], skeleton.Placeholder); n != 4 {
		t.Errorf("%d holes in the text, want 4", n)
	}
	w := sk.Functions[2]
	if w.Key != "withdraw" || w.Signature != "withdraw(uint256)" || sk.Header(2) != "function withdraw(uint256 amount) public returns (bool ok)" {
		t.Errorf("withdraw: key %q sig %q header %q", w.Key, w.Signature, sk.Header(2))
	}
	if sk.Header(1) != "function deposit(uint256 amount) public" {
		t.Errorf("deposit header %q", sk.Header(1))
	}
	wantDoc := []string{"@notice Withdraw.", "@param amount The amount (uint256).", "@return ok The ok (bool)."}
	if strings.Join(w.NatSpec, "|") != strings.Join(wantDoc, "|") || w.NatSpecSource != "template" {
		t.Errorf("withdraw NatSpec %q (%s)", w.NatSpec, w.NatSpecSource)
	}
	if sk.Functions[3].NatSpecSource != "none" || !strings.Contains(sk.Files[sk.File], "\n    /// @notice Deposit.\n    /// @param amount The amount (uint256).\n    function deposit(uint256 amount) public  {") {
		t.Errorf("NatSpec placement:\n%s", sk.Files[sk.File])
	}
	checkReference(t, sk, "0.4.24", vault04)
	if _, err := compile(t, "0.4.24", sk.Stubbed()); err != nil {
		t.Errorf("stubbed skeleton does not compile: %v\n%s", err, sk.Stubbed())
	}
}

// checkReference fills the skeleton with the original bodies and headers:
// it must compile and keep every statement of the original.
func checkReference(t *testing.T, sk *skeleton.Skeleton, version, src string) {
	t.Helper()
	orig := skeleton.NewOriginal(map[string]string{sk.File: src})
	bodies, headers := map[int]string{}, map[int]string{}
	for _, i := range sk.Holes() {
		bodies[i] = orig.Body(sk.Functions[i])
		headers[i] = orig.Header(sk.Functions[i])
		if headers[i] != sk.Header(i) {
			t.Errorf("function %d: original header %q, skeleton header %q", i, headers[i], sk.Header(i))
		}
	}
	ref := sk.Fill(bodies, headers, "")
	if strings.Contains(ref[sk.File], "TODO") {
		t.Errorf("reference still has holes")
	}
	if _, err := compile(t, version, ref); err != nil {
		t.Errorf("reference does not compile: %v\n%s", err, ref)
	}
}

const store08 = `// SPDX-License-Identifier: MIT
pragma solidity 0.8.19;

contract Store {
    struct Item { uint256 price; address seller; }
    Item[] internal items;
    address public immutable owner;
    mapping(address => uint256) public credit;

    event Listed(uint256 indexed id, uint256 price);

    modifier onlyOwner() { require(msg.sender == owner, "owner"); _; }

    constructor() { owner = msg.sender; }

    /// @dev old doc
    function list(uint256 price) external onlyOwner returns (uint256 id) {
        items.push(Item(price, msg.sender));
        id = items.length - 1;
        emit Listed(id, price);
    }

    function item(uint256 id) internal view returns (Item storage) { return items[id]; }

    function pay(uint256 id) public payable { credit[item(id).seller] += msg.value; }
    function pay(uint256 id, address to) public payable { credit[to] += msg.value + id * 0; }

    function get(uint256, uint256 b) external pure returns (uint256, bool big) { return (b, b > 10); }

    receive() external payable {}
}
`

func TestBuildStore08(t *testing.T) {
	sk := build(t, "0.8.19", "Store.sol", "Store", store08)
	keys := []string{}
	for _, f := range sk.Functions {
		keys = append(keys, f.Key+"="+f.Stub)
	}
	want := "constructor={},list={},item={ revert(); },pay(uint256)={},pay(uint256,address)={},get={},receive={}"
	if strings.Join(keys, ",") != want {
		t.Fatalf("keys/stubs %s\nwant %s", strings.Join(keys, ","), want)
	}
	get := sk.Functions[5]
	if strings.Join(get.NatSpec, "|") != "@notice Get (read-only).|@param b The b (uint256).|@return The uint256 result.|@return big The big (bool)." {
		t.Errorf("get NatSpec %q", get.NatSpec)
	}
	if strings.Contains(sk.Files[sk.File], "old doc") {
		t.Error("old NatSpec survived")
	}
	checkReference(t, sk, "0.8.19", store08)
	// The stub constructor leaves the immutable owner unassigned: 0.8.19
	// refuses that, and the skeleton stage records this error as the reason.
	_, err := compile(t, "0.8.19", sk.Stubbed())
	if err == nil || !strings.Contains(err.Error(), "immutable") {
		t.Errorf("stubbed skeleton with an immutable: err = %v", err)
	}
}

func TestBuildErrors(t *testing.T) {
	out, err := compile(t, "0.8.19", map[string]string{"Store.sol": store08})
	if err != nil {
		t.Fatal(err)
	}
	root, _ := solast.Parse(out.Sources["Store.sol"].AST)
	if _, err := skeleton.Build(skeleton.Input{Files: map[string]string{"Store.sol": store08}, File: "Store.sol", Target: "Nope", ASTs: map[string]*solast.Node{"Store.sol": root}}, nil); err == nil {
		t.Error("a missing target was accepted")
	}
	if _, err := skeleton.Build(skeleton.Input{Files: map[string]string{}, File: "Store.sol", Target: "Store", ASTs: map[string]*solast.Node{"Store.sol": root}}, nil); err == nil {
		t.Error("a missing file was accepted")
	}
	if _, err := skeleton.Build(skeleton.Input{Files: map[string]string{"Store.sol": "short"}, File: "Store.sol", Target: "Store", ASTs: map[string]*solast.Node{"Store.sol": root}}, nil); err == nil {
		t.Error("an AST that does not fit the text was accepted")
	}
}

func TestModelDocs(t *testing.T) {
	out, err := compile(t, "0.4.24", map[string]string{"Vault.sol": vault04})
	if err != nil {
		t.Fatal(err)
	}
	root, _ := solast.Parse(out.Sources["Vault.sol"].AST)
	docs := func(f skeleton.Function) *skeleton.Doc {
		if f.Key != "withdraw" {
			return nil
		}
		return &skeleton.Doc{Notice: "Take @param money\n out */ of it.", Params: map[string]string{"amount": "how much"}, Returns: []string{"ok whether it worked"}}
	}
	sk, err := skeleton.Build(skeleton.Input{Files: map[string]string{"Vault.sol": vault04}, File: "Vault.sol", Target: "Vault", ASTs: map[string]*solast.Node{"Vault.sol": root}}, docs)
	if err != nil {
		t.Fatal(err)
	}
	w := sk.Functions[2]
	if w.NatSpecSource != "llm" || strings.Join(w.NatSpec, "|") != "@notice Take param money out of it.|@param amount how much|@return ok whether it worked" {
		t.Fatalf("withdraw NatSpec %q (%s)", w.NatSpec, w.NatSpecSource)
	}
	if sk.Functions[0].NatSpecSource != "template" {
		t.Fatalf("initialize NatSpec source %s", sk.Functions[0].NatSpecSource)
	}
	checkReference(t, sk, "0.4.24", vault04)
}

// TestBuildChain: under the chain scope (the default) every function with a
// body in the target's inheritance chain is a hole, in source order across
// the file, with keys unique across contracts; libraries, interfaces,
// modifiers and contracts outside the chain keep their bodies. The target
// scope stubs only the target's own functions.
func TestBuildChain(t *testing.T) {
	src, err := os.ReadFile("testdata/wolfcoin.sol")
	if err != nil {
		t.Fatal(err)
	}
	sk := build(t, "0.8.19", "WOLFCOIN.sol", "WOLFCOIN", string(src))
	var keys, nontrivial []string
	for _, f := range sk.Functions {
		keys = append(keys, f.Key)
		if f.Nontrivial {
			nontrivial = append(nontrivial, f.Key)
		}
	}
	want := "Context._msgSender,Ownable.constructor,Ownable.owner,Ownable.transferOwnership,Pausable.pause,Pausable.unpause," +
		"ERC20.transfer,ERC20._transfer,ERC20._mint,ERC20.balanceOf,constructor,transfer"
	if sk.Scope != skeleton.ScopeChain || strings.Join(keys, ",") != want {
		t.Fatalf("scope %s keys\n%s\nwant\n%s", sk.Scope, strings.Join(keys, ","), want)
	}
	wantNT := "Ownable.transferOwnership,Pausable.pause,Pausable.unpause,ERC20.transfer,ERC20._transfer,ERC20._mint,transfer"
	if strings.Join(nontrivial, ",") != wantNT || sk.Nontrivial() != 7 || len(sk.Holes()) != 12 {
		t.Fatalf("non-trivial %v (%d), holes %d", nontrivial, sk.Nontrivial(), len(sk.Holes()))
	}
	if f := sk.Functions[7]; f.Contract != "ERC20" || f.Signature != "_transfer(address,address,uint256)" {
		t.Errorf("ERC20._transfer: %+v", f)
	}
	if n := strings.Count(sk.Files[sk.File], skeleton.Placeholder); n != 12 {
		t.Errorf("%d holes in the text, want 12", n)
	}
	for _, keep := range []string{"uint256 c = a + b; require(c >= a); return c;", `require(_owner == _msgSender(), "not the owner"); _;`,
		"function hit() public { hits += 1; }"} {
		if !strings.Contains(sk.Files[sk.File], keep) {
			t.Errorf("skeleton lost %q", keep)
		}
	}
	checkReference(t, sk, "0.8.19", string(src))
	if _, err := compile(t, "0.8.19", sk.Stubbed()); err != nil {
		t.Errorf("stubbed chain skeleton does not compile: %v", err)
	}

	out, err := compile(t, "0.8.19", map[string]string{"WOLFCOIN.sol": string(src)})
	if err != nil {
		t.Fatal(err)
	}
	root, _ := solast.Parse(out.Sources["WOLFCOIN.sol"].AST)
	in := skeleton.Input{Files: map[string]string{"WOLFCOIN.sol": string(src)}, File: "WOLFCOIN.sol", Target: "WOLFCOIN", ASTs: map[string]*solast.Node{"WOLFCOIN.sol": root}, Scope: skeleton.ScopeTarget}
	target, err := skeleton.Build(in, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(target.Holes()) != 2 || target.Functions[1].Key != "transfer" || target.Nontrivial() != 1 || target.Scope != skeleton.ScopeTarget {
		t.Fatalf("target scope: %+v", target.Functions)
	}
	in.Scope = "everything"
	if _, err := skeleton.Build(in, nil); err == nil {
		t.Error("an unknown scope was accepted")
	}
}

// multiFile compiles the multi-file fixture and returns its files and ASTs.
func multiFile(t *testing.T) (map[string]string, map[string]*solast.Node) {
	t.Helper()
	compiler(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	files := stagetest.MultiFileSources()
	out, err := mgr.Compile(ctx, stagetest.MultiFileInput(files))
	if err != nil {
		t.Fatalf("fixture does not compile: %v", err)
	}
	asts := map[string]*solast.Node{}
	for name := range files {
		if asts[name], err = solast.Parse(out.Sources[name].AST); err != nil {
			t.Fatal(err)
		}
	}
	return files, asts
}

// TestBuildMultiFile: on a standard-JSON source the chain crosses files:
// every body of the target's bases in other files is a hole, in generation
// order (the bases' files most base first, source order inside a file),
// each function naming its file; the library, the interface, the modifier
// and the contract outside the chain keep their bodies; the reference and
// the stubbed skeleton compile with the recorded settings.
func TestBuildMultiFile(t *testing.T) {
	files, asts := multiFile(t)
	in := skeleton.Input{Files: files, File: stagetest.MultiFileFile, Target: stagetest.MultiFileTarget, ASTs: asts}
	sk, err := skeleton.Build(in, nil)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, f := range sk.Functions {
		keys = append(keys, f.File+"#"+f.Key)
	}
	ctxFile, owned, base, target := stagetest.MultiFileContext, stagetest.MultiFileOwned, stagetest.MultiFileBase, stagetest.MultiFileFile
	want := []string{ctxFile + "#Context._msgSender", owned + "#Owned.constructor", owned + "#Owned.owner", owned + "#Owned._checkOwner",
		owned + "#Owned.transferOwnership", owned + "#Owned._setOwner",
		base + "#BaseToken.transfer", base + "#BaseToken.approve", base + "#BaseToken.transferFrom", base + "#BaseToken._transfer", base + "#BaseToken._mint",
		target + "#constructor", target + "#mint", target + "#setPaused", target + "#burn", target + "#mintable", target + "#_transfer"}
	if strings.Join(keys, ",") != strings.Join(want, ",") {
		t.Fatalf("functions\n%s\nwant\n%s", strings.Join(keys, ",\n"), strings.Join(want, ",\n"))
	}
	if got := strings.Join(sk.ChainFiles(), ","); got != ctxFile+","+owned+","+base+","+target {
		t.Errorf("chain files %s", got)
	}
	holes := 0
	for _, text := range sk.Files {
		holes += strings.Count(text, skeleton.Placeholder)
	}
	if holes != 17 || sk.Nontrivial() != 11 {
		t.Errorf("%d holes (want 17), %d non-trivial (want 11)", holes, sk.Nontrivial())
	}
	for file, keep := range map[string]string{base: "held[msg.sender] += amount;", owned: "_checkOwner();\n        _;",
		"lib/fx/utils/FxMath.sol": "return a < b ? a : b;", "src/IMintable.sol": "function mint(address to, uint256 amount) external;"} {
		if !strings.Contains(sk.Files[file], keep) {
			t.Errorf("%s lost %q:\n%s", file, keep, sk.Files[file])
		}
	}
	if strings.Contains(sk.Files["lib/fx/utils/FxMath.sol"], "the smaller") {
		t.Error("a file outside the chain kept its comments")
	}
	if h := sk.Header(9); h != "function _transfer(address from, address to, uint256 amount) internal virtual" {
		t.Errorf("BaseToken._transfer header %q", h)
	}
	show := sk.Show(sk.Stubbed())
	if !strings.HasPrefix(show, "// File: "+ctxFile+"\n") || !strings.Contains(show, "\n// File: "+target+"\n") || strings.Contains(show, "FxMath {") {
		t.Errorf("shown chain:\n%s", show)
	}
	orig := skeleton.NewOriginal(files)
	bodies, headers := map[int]string{}, map[int]string{}
	for _, i := range sk.Holes() {
		bodies[i], headers[i] = orig.Body(sk.Functions[i]), orig.Header(sk.Functions[i])
		if headers[i] != sk.Header(i) {
			t.Errorf("function %d: original header %q, skeleton header %q", i, headers[i], sk.Header(i))
		}
	}
	ctx := context.Background()
	if _, err := mgr.Compile(ctx, stagetest.MultiFileInput(sk.Fill(bodies, headers, ""))); err != nil {
		t.Errorf("reference does not compile: %v", err)
	}
	if _, err := mgr.Compile(ctx, stagetest.MultiFileInput(sk.Stubbed())); err != nil {
		t.Errorf("stubbed skeleton does not compile: %v", err)
	}
	b, _ := json.Marshal(sk)
	back, err := skeleton.Decode(b)
	if err != nil || back.Header(9) != sk.Header(9) {
		t.Fatalf("decode: %v", err)
	}
	if _, err := skeleton.Decode([]byte(`{"target":"CapToken","file":"src/CapToken.sol","files":{"src/CapToken.sol":""}}`)); err == nil ||
		!strings.Contains(err.Error(), "run the skeleton stage again") {
		t.Errorf("a skeleton of an older format: %v", err)
	}
}

// TestChainMatchesSolc: the lexer's chain across files is solc's
// linearisation, on the multi-file fixture and on a flattened file.
func TestChainMatchesSolc(t *testing.T) {
	files, asts := multiFile(t)
	wolf, err := os.ReadFile("testdata/wolfcoin.sol")
	if err != nil {
		t.Fatal(err)
	}
	out, err := compile(t, "0.8.19", map[string]string{"WOLFCOIN.sol": string(wolf)})
	if err != nil {
		t.Fatal(err)
	}
	wroot, _ := solast.Parse(out.Sources["WOLFCOIN.sol"].AST)
	for _, c := range []struct {
		files        map[string]string
		asts         map[string]*solast.Node
		file, target string
	}{
		{files, asts, stagetest.MultiFileFile, stagetest.MultiFileTarget},
		{map[string]string{"WOLFCOIN.sol": string(wolf)}, map[string]*solast.Node{"WOLFCOIN.sol": wroot}, "WOLFCOIN.sol", "WOLFCOIN"},
	} {
		chain, err := soltext.Chain(c.files, c.file, c.target)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, l := range chain {
			got = append(got, l.File+":"+l.Name)
		}
		if want := solcLinearization(c.asts, c.target); strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%s: lexer chain\n%v\nsolc\n%v", c.target, got, want)
		}
	}
	if _, err := soltext.Chain(files, "src/IMintable.sol", stagetest.MultiFileTarget); err == nil {
		t.Error("a target looked up in a file that does not define it was found")
	}
}

// solcLinearization is linearizedBaseContracts as file:name.
func solcLinearization(asts map[string]*solast.Node, target string) []string {
	byID := map[int]string{}
	var ids []any
	for file, root := range asts {
		for _, c := range solast.Contracts(root) {
			byID[c.Node.ID] = file + ":" + c.Name
			if c.Name == target {
				ids, _ = c.Node.Attrs["linearizedBaseContracts"].([]any)
			}
		}
	}
	var out []string
	for _, id := range ids {
		out = append(out, byID[int(id.(float64))])
	}
	return out
}
