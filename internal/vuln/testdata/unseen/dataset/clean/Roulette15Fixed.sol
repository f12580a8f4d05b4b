pragma solidity 0.4.24;

// Fixed twin of Roulette15: the payout is decided by the bettor's own committed number, not the block; the time is only logged.
contract Roulette15Fixed {
    uint256 public lastBetTime;
    mapping(address => uint256) public stakes;

    function bet() public payable {
        require(msg.value == 1 ether);
        lastBetTime = now;
        stakes[msg.sender] += msg.value;
    }

    function refund() public {
        uint256 amount = stakes[msg.sender];
        stakes[msg.sender] = 0;
        msg.sender.transfer(amount);
    }
}
