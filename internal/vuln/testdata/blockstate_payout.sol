pragma solidity ^0.5.0;

// A stake paid back in full on every fifteenth second (SolidiFI's
// timestamp snippet): solc 0.5.17 targets istanbul by default, so
// address(this).balance compiles to SELFBALANCE.
contract Payout {
    function play() public payable {
        require(msg.value == 10 ether);
        if (now % 15 == 0) {
            msg.sender.transfer(address(this).balance);
        }
    }
}
