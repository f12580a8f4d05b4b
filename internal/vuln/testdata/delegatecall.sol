pragma solidity ^0.4.24;

// Anyone picks the code that runs with this contract's storage and balance.
contract OpenForwarder {
    address public owner;

    constructor() public {
        owner = msg.sender;
    }

    function forward(address callee, bytes data) public {
        require(callee.delegatecall(data));
    }
}
