pragma solidity 0.6.12;

// Block-state amount (DASP 8): the vested share paid out is computed from block.timestamp.
contract LinearVesting {
    address payable public beneficiary;
    uint256 public start;
    uint256 public duration = 30 days;
    uint256 public released;

    constructor() public payable {
        beneficiary = msg.sender;
        start = block.timestamp;
    }

    function grant() external payable {}

    function release() external {
        uint256 total = address(this).balance + released;
        uint256 vested = total * (block.timestamp - start) / duration; // LABEL: time_manipulation
        if (vested > total) {
            vested = total;
        }
        uint256 amount = vested - released;
        released += amount;
        msg.sender.transfer(amount);
    }
}
