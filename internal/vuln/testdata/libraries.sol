// SPDX-License-Identifier: MIT
pragma solidity ^0.8.19;

// Shared is linked by the contract and by Twice: a diamond of libraries.
library Shared {
    function add(uint256 a, uint256 b) public pure returns (uint256) { return a + b; }
}

library Twice {
    function twice(uint256 v) public pure returns (uint256) { return Shared.add(v, v); }
}

contract Ledger {
    uint256 public total;

    function book(uint256 v) external { total = Shared.add(total, Twice.twice(v)); }
}
