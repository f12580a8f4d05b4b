pragma solidity ^0.4.24;

// The check is itself a subtraction, always >= 0: a transfer above the
// balance wraps the sender's balance around.
contract WrappingToken {
    mapping(address => uint256) public balanceOf;

    constructor() public {
        balanceOf[msg.sender] = 1000;
    }

    function transfer(address to, uint256 value) public {
        require(balanceOf[msg.sender] - value >= 0);
        balanceOf[msg.sender] -= value;
        balanceOf[to] += value;
    }
}
