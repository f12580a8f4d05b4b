pragma solidity ^0.4.24;

// Only the owner may forward.
contract OwnedForwarder {
    address public owner;

    constructor() public {
        owner = msg.sender;
    }

    function forward(address callee, bytes data) public {
        require(msg.sender == owner);
        require(callee.delegatecall(data));
    }
}
