pragma solidity ^0.4.24;

// Every second player takes the pot: the order of plays decides, not the
// block.
contract TurnLottery {
    uint256 public plays;

    function play() public payable {
        plays += 1;
        if (plays % 2 == 0) {
            msg.sender.transfer(address(this).balance);
        }
    }
}
