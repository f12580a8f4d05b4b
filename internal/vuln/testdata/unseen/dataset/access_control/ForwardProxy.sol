pragma solidity 0.4.24;

// Delegatecall to a user-supplied target (DASP 2): anyone runs any code in the proxy's context.
contract ForwardProxy {
    address public owner;

    constructor() public {
        owner = msg.sender;
    }

    function forward(address callee, bytes data) public {
        require(callee.delegatecall(data)); // LABEL: access_control
    }

    function () public payable {}
}
