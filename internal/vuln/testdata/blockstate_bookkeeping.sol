pragma solidity ^0.4.24;

// Reads the time for bookkeeping only: the withdrawal pays the same amount
// on both sides of the branch, so the block does not decide whether Ether
// moves or how much.
contract StampedBank {
    mapping(address => uint256) public balances;
    uint256 public evenSecondWithdrawals;

    function deposit() public payable {
        balances[msg.sender] += msg.value;
    }

    function withdraw() public {
        if (block.timestamp % 2 == 0) {
            evenSecondWithdrawals += 1;
        }
        uint256 amount = balances[msg.sender];
        balances[msg.sender] = 0;
        msg.sender.transfer(amount);
    }
}
