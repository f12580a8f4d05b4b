pragma solidity 0.4.24;

// Fixed twin of ForwardProxy: only the owner may forward.
contract ForwardProxyOwned {
    address public owner;

    constructor() public {
        owner = msg.sender;
    }

    function forward(address callee, bytes data) public {
        require(msg.sender == owner);
        require(callee.delegatecall(data));
    }

    function () public payable {}
}
