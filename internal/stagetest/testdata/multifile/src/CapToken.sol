// SPDX-License-Identifier: MIT
pragma solidity 0.8.19;

import {BaseToken} from "@fx/token/BaseToken.sol";
import {FxMath} from "@fx/utils/FxMath.sol";
import {IMintable} from "./IMintable.sol";

/// @title A capped, pausable token whose ERC-20 core and ownership live in other files.
contract CapToken is BaseToken, IMintable {
    string public constant name = "Cap Token";
    uint256 public cap;
    bool public paused;

    constructor(uint256 cap_) {
        cap = cap_;
        _mint(msg.sender, cap_ / 10);
    }

    /// @notice The owner mints up to the cap.
    function mint(address to, uint256 amount) external onlyOwner {
        require(totalSupply + amount <= cap, "CapToken: cap");
        _mint(to, amount);
    }

    function setPaused(bool value) external onlyOwner {
        paused = value;
    }

    /// @notice Burns up to `amount` of the caller's tokens.
    function burn(uint256 amount) external {
        uint256 burnt = FxMath.min(amount, balanceOf[msg.sender]);
        balanceOf[msg.sender] -= burnt;
        totalSupply -= burnt;
        emit Transfer(msg.sender, address(0), burnt);
    }

    function mintable() external view returns (uint256) {
        return cap - totalSupply;
    }

    function _transfer(address from, address to, uint256 amount) internal override {
        require(!paused, "CapToken: paused");
        super._transfer(from, to, amount);
    }
}
