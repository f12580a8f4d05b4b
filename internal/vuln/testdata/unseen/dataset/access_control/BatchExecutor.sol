pragma solidity 0.5.17;

// Delegatecall to a user-supplied target (DASP 2): an "executor" helper left public.
contract BatchExecutor {
    address public admin;
    uint256 public executed;

    constructor() public {
        admin = msg.sender;
    }

    function execute(address target, bytes memory data) public returns (bytes memory) {
        executed += 1;
        (bool ok, bytes memory ret) = target.delegatecall(data); // LABEL: access_control
        require(ok);
        return ret;
    }
}
