package dcrextract

import (
	"strings"
	"testing"

	"github.com/solbehave/solbehave/internal/dcrgraph"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/deploy/deploytest"
	"github.com/solbehave/solbehave/internal/solc"
	"github.com/solbehave/solbehave/internal/stagetest"
)

func loadMultiFile(t *testing.T) (*deploy.Record, *solc.Output) {
	t.Helper()
	return deploytest.LoadMultiFile(t, 200)
}

// roles maps each success event of g to its role.
func roles(g *dcrgraph.Graph) map[string]dcrgraph.Role {
	out := map[string]dcrgraph.Role{}
	for _, e := range g.Events {
		if e.Branch == "success" {
			out[e.Function] = e.Role
		}
	}
	return out
}

// TestStaticAcrossFiles: on the multi-file fixture the static extractor
// reads the chain across its files: the functions inherited from other
// files are events; the owner check lives in Owned.sol, shaped like
// OpenZeppelin's Ownable (onlyOwner calls _checkOwner, which compares the
// getter owner() with Context's _msgSender(), and the constructor sets the
// owner through a helper), and mint, setPaused and transferOwnership are
// the owner's; transfer needs no earlier mint (the constructor's _mint in
// BaseToken.sol gives the deployer a balance). The LLM extractor's prompt
// holds every file.
func TestStaticAcrossFiles(t *testing.T) {
	rec, out := loadMultiFile(t)
	res, err := Static(FromRecord(rec, out))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]dcrgraph.Role{"approve": dcrgraph.RoleAny, "burn": dcrgraph.RoleAny, "mint": dcrgraph.RoleOwner, "setPaused": dcrgraph.RoleOwner,
		"transfer": dcrgraph.RoleAny, "transferFrom": dcrgraph.RoleAny, "transferOwnership": dcrgraph.RoleOwner}
	if got := roles(res.Graph); stagetest.JSON(got) != stagetest.JSON(want) {
		t.Errorf("roles %v\nwant  %v", got, want)
	}
	for _, r := range res.Graph.Relations {
		if r.Type == dcrgraph.Condition && r.Target == "transferSuccess" {
			t.Errorf("%s is a condition of transfer, yet the deployer holds the constructor's tokens", r.Source)
		}
	}
	in, err := LLMInputFromRecord(rec, out)
	if err != nil {
		t.Fatal(err)
	}
	_, user, _ := prompts(in)
	for name := range stagetest.MultiFileSources() {
		if !strings.Contains(user, "// File: "+name+"\n") {
			t.Errorf("the LLM prompt leaves out %s", name)
		}
	}
}

// ownSources: a base in its own file takes its owner as a constructor
// argument (OpenZeppelin 5's Ownable(initialOwner)), passed by the heir as
// a constructor modifier (T) or in its inheritance list (U), the owner
// check an if-revert; or sets it through a local (OpenZeppelin 3's
// `address msgSender = _msgSender(); _owner = msgSender;`, V).
var ownSources = map[string]string{
	"lib/Own.sol": `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.19;
abstract contract Own {
    address private _owner;
    error NotOwner(address who);
    constructor(address initialOwner) { _setOwner(initialOwner); }
    modifier onlyOwner() { if (_owner != msg.sender) revert NotOwner(msg.sender); _; }
    function _setOwner(address o) internal { _owner = o; }
}
abstract contract Own3 {
    address private _owner;
    constructor() { address deployer = msg.sender; _owner = deployer; }
    modifier onlyOwner() { require(_owner == msg.sender, "no"); _; }
}
`,
	"T.sol": `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.19;
import "./lib/Own.sol";
contract T is Own {
    uint256 public x;
    constructor() Own(msg.sender) {}
    function set(uint256 v) external onlyOwner { x = v; }
    function poke() external { x += 1; }
}
contract U is Own(msg.sender) {
    uint256 public y;
    function set(uint256 v) external onlyOwner { y = v; }
}
contract V is Own3 {
    uint256 public z;
    function set(uint256 v) external onlyOwner { z = v; }
}
`,
}

func TestStaticBaseConstructorArguments(t *testing.T) {
	out := deploytest.Compile(t, solc.Input{Compiler: stagetest.MultiFileCompiler, Sources: ownSources})
	for _, target := range []string{"T", "U", "V"} {
		res, err := Static(Input{Contract: target, Output: out, Sources: ownSources})
		if err != nil {
			t.Fatal(err)
		}
		if got := roles(res.Graph); got["set"] != dcrgraph.RoleOwner || target == "T" && got["poke"] != dcrgraph.RoleAny {
			t.Errorf("%s: roles %v", target, got)
		}
	}
}
