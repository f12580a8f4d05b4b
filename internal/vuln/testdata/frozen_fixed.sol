pragma solidity ^0.4.24;

// The owner can sweep the deposits.
contract SweepableLocker {
    address public owner;
    mapping(address => uint256) public deposits;

    constructor() public {
        owner = msg.sender;
    }

    function deposit() public payable {
        deposits[msg.sender] += msg.value;
    }

    function sweep() public {
        require(msg.sender == owner);
        owner.transfer(address(this).balance);
    }
}
