pragma solidity ^0.4.24;

// Family: modifier-based reentrancy. One modifier checks the caller has not
// claimed, the next pays the gift before the body records the claim.
contract WelcomeGift {
    mapping(address => bool) public claimed;
    uint256 public gift = 1 finney;

    modifier firstTime() {
        require(!claimed[msg.sender]);
        _;
    }

    modifier sendsGift() {
        require(msg.sender.call.value(gift)());
        _;
    }

    function claimGift() public firstTime sendsGift {
        claimed[msg.sender] = true;
    }
}
