package callseq

import (
	"reflect"
	"testing"

	"github.com/solbehave/solbehave/internal/deploy/deploytest"
)

// An owner kept under another name, checked through a getter and
// _msgSender(), and written through an internal function: the functions that
// can move it are found by what they write, not by their names.
const adminSource = `// SPDX-License-Identifier: MIT
pragma solidity 0.8.19;

contract Base {
    address private _admin;
    address public treasury;
    mapping(address => bool) public allowed;

    constructor() { _admin = msg.sender; }

    function _msgSender() internal view returns (address) { return msg.sender; }
    function admin() public view returns (address) { return _admin; }

    modifier onlyAdmin() {
        require(admin() == _msgSender(), "not admin");
        _;
    }

    function _setAdmin(address a) internal { _admin = a; }
}

contract Admin is Base {
    uint256 public value;

    function handOver(address a) external onlyAdmin { _setAdmin(a); }
    function abdicate() external onlyAdmin { _setAdmin(address(0)); }
    function setTreasury(address t) external onlyAdmin { treasury = t; }
    function allow(address a) external { allowed[a] = true; }
    function set(uint256 v) external { require(msg.sender != treasury); value = v; }
}
`

func TestOwnershipFunctionsFollowTheOwnerVariable(t *testing.T) {
	d := loadDemo(t, "StakingPool") // for its 0.8.19 compiler settings
	out := deploytest.Compile(t, d.rec.CompileInput(map[string]string{"Admin.sol": adminSource}))
	got, err := OwnershipFunctions(out, nil, "Admin")
	if err != nil {
		t.Fatal(err)
	}
	// treasury is compared with msg.sender too (set refuses it), so the
	// function that moves it counts: it can lock a sender out.
	if want := []string{"abdicate", "handOver", "setTreasury"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("OwnershipFunctions = %v, want %v", got, want)
	}
}

func TestOwnershipFunctionsOfTheDemoContracts(t *testing.T) {
	for name, want := range map[string][]string{
		"Vault":          nil,
		"MultiSigWallet": nil, // its owners live in a mapping: adding one takes no role away
		"EtherLocker":    {"transferOwnership"},
		"TimedCrowdsale": nil, // no transferOwnership; setWallet moves a payee, not a caller check
	} {
		d := loadDemo(t, name)
		target, _ := d.rec.Target(d.out)
		got, err := OwnershipFunctions(d.out, nil, target.Name)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) || (len(want) > 0 && !reflect.DeepEqual(got, want)) {
			t.Errorf("%s: %v, want %v", name, got, want)
		}
	}
}
