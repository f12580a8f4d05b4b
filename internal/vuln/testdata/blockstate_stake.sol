pragma solidity ^0.4.24;

// A coin flip on the block's time behind an exact ticket price fixed at
// deployment (no constant of the code holds it): the block decides the
// payout, but only a player sending exactly the price reaches it.
contract PricedFlip {
    uint public price;

    constructor() public {
        price = 1 + uint(keccak256(abi.encodePacked(address(this)))) % 1000000;
    }

    function play() public payable {
        require(msg.value == price);
        if (uint(keccak256(abi.encodePacked(block.timestamp))) % 2 == 0) {
            msg.sender.transfer(address(this).balance);
        }
    }
}
