package dcrextract

import (
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	esapi "github.com/nanmu42/etherscan-api"

	"github.com/solbehave/solbehave/internal/dcrgraph"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/deploy/deploytest"
	"github.com/solbehave/solbehave/internal/etherscan"
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
// a constructor modifier (T, and W through _msgSender()) or in its
// inheritance list (U), the owner check an if-revert; or sets it through a
// local (OpenZeppelin 3's `address msgSender = _msgSender(); _owner =
// msgSender;`, V). P passes on its own constructor's parameter.
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
abstract contract Ctx {
    function _msgSender() internal view returns (address) { return msg.sender; }
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
contract W is Ctx, Own {
    uint256 public w;
    constructor() Own(_msgSender()) {}
    function set(uint256 v) external onlyOwner { w = v; }
}
contract P is Own {
    uint256 public p;
    constructor(uint256 start, address initialOwner) Own(initialOwner) { p = start; }
    function set(uint256 v) external onlyOwner { p = v; }
}
`,
}

func TestStaticBaseConstructorArguments(t *testing.T) {
	out := deploytest.Compile(t, solc.Input{Compiler: stagetest.MultiFileCompiler, Sources: ownSources})
	for _, target := range []string{"T", "U", "V", "W"} {
		res, err := Static(Input{Contract: target, Output: out, Sources: ownSources})
		if err != nil {
			t.Fatal(err)
		}
		if got := roles(res.Graph); got["set"] != dcrgraph.RoleOwner || target == "T" && got["poke"] != dcrgraph.RoleAny {
			t.Errorf("%s: roles %v", target, got)
		}
	}
}

// TestStaticOwnerFromConstructorArgument: P's owner is its constructor's
// parameter passed on to the base (OpenZeppelin 5's
// `constructor(address initialOwner) Ownable(initialOwner)`). The recorded
// deployment decides: deployed with the deployer as the owner, set is the
// owner's; deployed with another owner, or with no arguments known, the
// owner is nobody the sequences can send from, and set stays any.
func TestStaticOwnerFromConstructorArgument(t *testing.T) {
	out := deploytest.Compile(t, solc.Input{Compiler: stagetest.MultiFileCompiler, Sources: ownSources})
	deployer, other := common.HexToAddress("0xd3"), common.HexToAddress("0x0e")
	args := func(owner common.Address) []byte {
		return append(common.LeftPadBytes([]byte{7}, 32), common.LeftPadBytes(owner.Bytes(), 32)...)
	}
	for _, tc := range []struct {
		name string
		args []byte
		want dcrgraph.Role
	}{{"deployer", args(deployer), dcrgraph.RoleOwner}, {"other", args(other), dcrgraph.RoleAny},
		{"unknown", nil, dcrgraph.RoleAny}, {"undecodable", []byte{1, 2}, dcrgraph.RoleAny}} {
		res, err := Static(Input{Contract: "P", Output: out, Sources: ownSources, Caller: deployer, ConstructorArgs: tc.args})
		if err != nil {
			t.Fatal(err)
		}
		if got := roles(res.Graph)["set"]; got != tc.want {
			t.Errorf("%s: set has role %s, want %s", tc.name, got, tc.want)
		}
	}
}

// TestFromRecordReadsArgumentsPastUnlinkedLibraries: a contract that calls a
// public library function compiles with a link placeholder (the record sets
// no settings.libraries), and Etherscan recorded no ConstructorArguments, so
// the arguments are the creation input's tail after the code. The owner
// passed there is still read: FromRecord fails this when it needs the code
// linked before it reads any argument.
func TestFromRecordReadsArgumentsPastUnlinkedLibraries(t *testing.T) {
	sources := map[string]string{"lib/Own.sol": ownSources["lib/Own.sol"], "Q.sol": `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.19;
import "./lib/Own.sol";
library Calc { function twice(uint256 v) public pure returns (uint256) { return 2 * v; } }
contract Q is Own {
    uint256 public x;
    constructor(address o) Own(o) {}
    function set(uint256 v) external onlyOwner { x = Calc.twice(v); }
}
`}
	out := deploytest.Compile(t, solc.Input{Compiler: stagetest.MultiFileCompiler, Sources: sources})
	q, err := out.Contract("Q")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := q.CreationCode(nil); err == nil {
		t.Fatal("Q links no library: the test needs an unlinked one")
	}
	mainnet, err := q.CreationCode(map[string]common.Address{"Calc": common.HexToAddress("0x11b")})
	if err != nil {
		t.Fatal(err)
	}
	deployer := common.HexToAddress("0xd3")
	args := common.LeftPadBytes(deployer.Bytes(), 32)
	rec := &deploy.Record{Source: &esapi.ContractSource{ContractName: "Q"}, Files: &etherscan.SourceFiles{Files: sources},
		Creation: &deploy.Tx{From: deployer, Input: append(mainnet, args...)}}
	in := FromRecord(rec, out)
	if string(in.ConstructorArgs) != string(args) {
		t.Fatalf("constructor arguments %x, want %x", in.ConstructorArgs, args)
	}
	res, err := Static(in)
	if err != nil {
		t.Fatal(err)
	}
	if got := roles(res.Graph)["set"]; got != dcrgraph.RoleOwner {
		t.Errorf("set has role %s, want %s (the deployer passed as the owner)", got, dcrgraph.RoleOwner)
	}
}
