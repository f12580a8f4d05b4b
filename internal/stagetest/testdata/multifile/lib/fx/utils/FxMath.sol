// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

/// @title A library: called, not inherited, so it keeps its bodies.
library FxMath {
    function min(uint256 a, uint256 b) internal pure returns (uint256) {
        return a < b ? a : b; // the smaller
    }
}
