pragma solidity ^0.4.24;

// The fixed twin of MemberClub: the books are cleared before the refund.
contract MemberClubFixed {
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
        dues[msg.sender] = 0;
        members[msg.sender] = false;
        require(msg.sender.call.value(refund)());
    }
}
