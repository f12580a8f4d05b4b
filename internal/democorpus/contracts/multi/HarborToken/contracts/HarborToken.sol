// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Pausable} from "@openzeppelin/contracts/utils/Pausable.sol";

/// @title HarborToken
/// @notice A capped ERC-20 that its owner mints and can pause.
contract HarborToken is ERC20, Ownable, Pausable {
    /// @notice The most tokens that can ever exist.
    uint256 public constant CAP = 50_000_000 ether;

    constructor(address initialOwner) ERC20("Harbor", "HRB") Ownable(initialOwner) {}

    /// @notice Mint `amount` new tokens to `to`, within the cap.
    function mint(address to, uint256 amount) external onlyOwner {
        require(totalSupply() + amount <= CAP, "HarborToken: cap exceeded");
        _mint(to, amount);
    }

    /// @notice Stop every transfer, mint and burn.
    function pause() external onlyOwner {
        _pause();
    }

    /// @notice Let transfers run again.
    function unpause() external onlyOwner {
        _unpause();
    }

    /// @dev Every balance change waits while the token is paused.
    function _update(address from, address to, uint256 value) internal override whenNotPaused {
        super._update(from, to, value);
    }
}
