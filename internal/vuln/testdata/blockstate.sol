pragma solidity ^0.4.24;

// Whoever plays in an even second takes the pot: the miner picks the second.
contract TimeLottery {
    function play() public payable {
        if (block.timestamp % 2 == 0) {
            msg.sender.transfer(address(this).balance);
        }
    }
}
