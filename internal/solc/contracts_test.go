package solc

import (
	"fmt"
	"os"
	"os/exec"
	"sync"
	"testing"
)

// Test contracts. The same contract C is written for old (0.4.9 .. 0.4.26)
// and new (0.8.x) compilers; L is a library with a public function, so C's
// bytecode needs linking.
const (
	src04 = `pragma solidity ^0.4.9;
library L { function add(uint a, uint b) returns (uint) { return a + b; } }
contract C {
    uint public x;
    event E(address indexed who, uint v);
    modifier only() { if (msg.sender == address(0)) throw; _; }
    function C(uint a) { x = a; }
    function set(uint v) only { x = L.add(v, 1); E(msg.sender, v); }
    function get() constant returns (uint) { return x; }
    function pay() payable {}
    function() {}
}
`
	src08 = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
library L { function add(uint a, uint b) public pure returns (uint) { return a + b; } }
contract C {
    uint public x;
    event E(address indexed who, uint v);
    modifier only() { require(msg.sender != address(0)); _; }
    constructor(uint a) { x = a; }
    function set(uint v) public only { x = L.add(v, 1); emit E(msg.sender, v); }
    function get() public view returns (uint) { return x; }
    function pay() public payable {}
    fallback() external {}
}
`
	// srcSimple has no library: it deploys without linking.
	srcSimple08 = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Counter {
    uint public n;
    function inc() public { n += 1; }
}
`
	srcSyntaxError08 = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Broken {
    function f() public { uint x = 1 }
}
`
	srcSyntaxError04 = `pragma solidity ^0.4.9;
contract Broken {
    function f() { uint x = 1 }
}
`
)

var (
	sharedOnce sync.Once
	shared     *Manager
)

// needNode skips when the machine has no Node.js/npm (the compilers run on them).
func needNode(t testing.TB) {
	t.Helper()
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not on PATH: solc tests need Node.js and npm", tool)
		}
	}
}

// testManager is one Manager for the package's tests, on the default cache
// dir so compilers installed once are reused by later runs.
func testManager(t testing.TB) *Manager {
	needNode(t)
	sharedOnce.Do(func() {
		shared = NewManager(Options{MaxWorkers: 5, Logf: func(f string, a ...any) { fmt.Fprintf(os.Stderr, "    "+f+"\n", a...) }})
	})
	return shared
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared != nil {
		shared.Close()
	}
	os.Exit(code)
}
