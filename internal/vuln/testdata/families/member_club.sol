pragma solidity ^0.4.24;

// Family: registration and funding before payout. Only members pay dues,
// and leaving refunds them before the books are cleared.
contract MemberClub {
    mapping(address => bool) public members;
    mapping(address => uint256) public dues;

    function join() public {
        members[msg.sender] = true;
    }

    function payDues() public payable {
        require(members[msg.sender]);
        require(msg.value > 0);
        dues[msg.sender] += msg.value;
    }

    function leave() public {
        require(members[msg.sender]);
        uint256 refund = dues[msg.sender];
        require(refund > 0);
        require(msg.sender.call.value(refund)());
        dues[msg.sender] = 0;
        members[msg.sender] = false;
    }
}
