// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

import "../utils/Context.sol";

/// @title Single-owner access control (a base in its own file), shaped like
/// OpenZeppelin's Ownable: the owner is set through helpers and checked
/// against _msgSender() through a getter.
abstract contract Owned is Context {
    address private _owner;

    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    /// @dev Reverts unless the owner calls.
    modifier onlyOwner() {
        _checkOwner();
        _;
    }

    constructor() {
        _setOwner(_msgSender());
    }

    function owner() public view virtual returns (address) {
        return _owner;
    }

    function _checkOwner() internal view virtual {
        require(owner() == _msgSender(), "Owned: caller is not the owner");
    }

    /// @notice Hands the contract to a new owner.
    function transferOwnership(address newOwner) public virtual onlyOwner {
        require(newOwner != address(0), "Owned: zero address");
        _setOwner(newOwner);
    }

    function _setOwner(address newOwner) internal {
        address previous = _owner;
        _owner = newOwner;
        emit OwnershipTransferred(previous, newOwner);
    }
}
