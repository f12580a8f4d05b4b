// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

/// @title Single-owner access control (a base in its own file).
abstract contract Owned {
    address public owner;

    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    /// @dev Reverts unless the owner calls.
    modifier onlyOwner() {
        require(msg.sender == owner, "Owned: caller is not the owner");
        _;
    }

    constructor() {
        _setOwner(msg.sender);
    }

    /// @notice Hands the contract to a new owner.
    function transferOwnership(address newOwner) public virtual onlyOwner {
        require(newOwner != address(0), "Owned: zero address");
        _setOwner(newOwner);
    }

    function _setOwner(address newOwner) internal {
        address previous = owner;
        owner = newOwner;
        emit OwnershipTransferred(previous, newOwner);
    }
}
