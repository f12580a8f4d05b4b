pragma solidity ^0.4.24;

// The balance is compared before it is reduced.
contract CheckedToken {
    mapping(address => uint256) public balanceOf;

    constructor() public {
        balanceOf[msg.sender] = 1000;
    }

    function transfer(address to, uint256 value) public {
        require(balanceOf[msg.sender] >= value);
        balanceOf[msg.sender] -= value;
        balanceOf[to] += value;
    }
}
