pragma solidity ^0.4.24;

// Takes deposits and has no way to pay anything out.
contract Locker {
    mapping(address => uint256) public deposits;

    function deposit() public payable {
        deposits[msg.sender] += msg.value;
    }
}
