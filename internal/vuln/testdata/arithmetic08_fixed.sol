pragma solidity ^0.8.19;

// Checked arithmetic: an underflow panics and the transaction reverts.
contract CheckedCounter {
    mapping(address => uint256) public credit;

    function spend(uint256 amount) public {
        credit[msg.sender] -= amount;
    }
}
