pragma solidity ^0.4.24;

// The fixed twin of WelcomeGift: the modifier pays after the body.
contract WelcomeGiftFixed {
    mapping(address => bool) public claimed;
    uint256 public gift = 1 finney;

    modifier firstTime() {
        require(!claimed[msg.sender]);
        _;
    }

    modifier sendsGift() {
        _;
        require(msg.sender.call.value(gift)());
    }

    function claimGift() public firstTime sendsGift {
        claimed[msg.sender] = true;
    }
}
