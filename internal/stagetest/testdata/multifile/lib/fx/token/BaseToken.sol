// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

import "../access/Owned.sol";

/// @title A minimal ERC-20 core, inherited from another file.
abstract contract BaseToken is Owned {
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    uint256 public totalSupply;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    /// @notice Moves `amount` tokens to `to`.
    function transfer(address to, uint256 amount) public virtual returns (bool) {
        _transfer(msg.sender, to, amount);
        return true;
    }

    function approve(address spender, uint256 amount) public returns (bool) {
        allowance[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 amount) public returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        require(allowed >= amount, "BaseToken: allowance");
        allowance[from][msg.sender] = allowed - amount;
        _transfer(from, to, amount);
        return true;
    }

    function _transfer(address from, address to, uint256 amount) internal virtual {
        require(to != address(0), "BaseToken: zero address");
        uint256 balance = balanceOf[from];
        require(balance >= amount, "BaseToken: balance");
        balanceOf[from] = balance - amount;
        balanceOf[to] += amount;
        emit Transfer(from, to, amount);
    }

    function _mint(address to, uint256 amount) internal {
        totalSupply += amount;
        balanceOf[to] += amount;
        emit Transfer(address(0), to, amount);
    }
}

/// @title Outside the chain: never inherited by the target, keeps its bodies.
contract TokenEscrow {
    mapping(address => uint256) public held;

    function hold(uint256 amount) external {
        held[msg.sender] += amount;
    }
}
