pragma solidity 0.4.24;

// Block-state payout (DASP 8, time manipulation): every bet pays the pot when the block's timestamp is a multiple of 15.
contract Roulette15 {
    uint256 public pastBlockTime;

    function bet() public payable {
        require(msg.value == 1 ether);
        require(now != pastBlockTime);
        pastBlockTime = now;
        if (now % 15 == 0) { // LABEL: time_manipulation
            msg.sender.transfer(address(this).balance);
        }
    }

    function () public payable {}
}
