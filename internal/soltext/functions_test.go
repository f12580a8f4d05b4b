package soltext_test

import (
	"testing"

	"github.com/solbehave/solbehave/internal/soltext"
)

// multiFile is a two-file source whose target inherits across files, with
// everything the lexer must not miscount: braces and keywords in strings
// and comments, a struct, a modifier, function-typed parameters and
// variables, `payable` inside parameter and return lists, an interface
// base, a library outside the chain and a contract outside it.
var sizedSource = map[string]string{
	"contracts/Token.sol": `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
import {Ownable, Context} from "./access/Ownable.sol";
/* contract Fake is Ownable { function nope() public {} } */
interface IToken { function mint(address to) external; }
library Math { function add(uint a, uint b) internal pure returns (uint) { return a + b; } }
contract Token is IToken, Ownable(msg.sender) {
    struct S { uint a; function(uint) external view returns (uint) hook; }
    string constant BRACES = "} function fake() public { {";
    function(uint) internal pure returns (uint) private op;
    modifier gate() { require(true, "{"); _; }
    constructor() payable {}
    function mint(address to) external override gate { _credit(to); }
    function _credit(address payable to) internal returns (address payable) { return to; }
    function apply_(function(uint) external returns (uint) f) public { f(1); }
    function peek() public view returns (uint) { return 1; }
    function sum(uint a) public pure returns (uint) { return Math.add(a, 1); }
    receive() external payable {}
    fallback() external {}
}
contract Other { function unrelated() public {} }
`,
	"contracts/access/Ownable.sol": `pragma solidity ^0.8.20;
abstract contract Context { function _msgSender() internal view virtual returns (address) { return msg.sender; } }
abstract contract Ownable is Context {
    address private _owner;
    constructor(address o) { _owner = o; }
    function transferOwnership(address o) public virtual { _owner = o; }
    function _checkOwner() internal virtual;
}
`,
}

func TestChainCountAcrossFiles(t *testing.T) {
	// mint, _credit, apply_, receive, fallback (Token) + transferOwnership
	// (Ownable); not: constructors, the modifier, views, pure functions, the
	// bodiless _checkOwner, the interface, the library, Other, the string's
	// and the comment's functions, the function-typed variable.
	n, err := soltext.ChainCount(sizedSource, "Token")
	if err != nil || n != 6 {
		t.Fatalf("chain count %d (%v), want 6", n, err)
	}
	if _, err := soltext.ChainCount(sizedSource, "Missing"); err == nil {
		t.Fatal("a target the sources do not define was sized")
	}
}

// Old compilers: the constructor named like its contract, the unnamed
// fallback, `constant` for view.
func TestChainCountPre05(t *testing.T) {
	src := `pragma solidity ^0.4.18;
contract Owned { address owner; function Owned() public { owner = msg.sender; } function kill() public { selfdestruct(owner); } }
contract Coin is Owned {
    mapping (address => uint) balances;
    function Coin() public {}
    function () public payable {}
    function balanceOf(address a) public constant returns (uint) { return balances[a]; }
    function give(address a) public { balances[a] += 1; }
}`
	n, err := soltext.ChainCount(map[string]string{"Coin.sol": src}, "Coin")
	if err != nil || n != 3 { // kill, the fallback, give
		t.Fatalf("chain count %d (%v), want 3", n, err)
	}
}

func FuzzChainCount(f *testing.F) {
	for _, src := range sizedSource {
		f.Add(src)
	}
	f.Add("contract A is B { function f( { } contract B is A {}")
	f.Add("abstract contract")
	f.Add("contract C is { function } } } {{")
	f.Fuzz(func(t *testing.T, src string) {
		for _, d := range soltext.Definitions(src) {
			n, err := soltext.ChainCount(map[string]string{"f.sol": src}, d.Name)
			if err != nil || n < 0 || n > len(src) {
				t.Fatalf("%s: %d (%v)", d.Name, n, err)
			}
		}
	})
}
