pragma solidity 0.5.17;

// Addition overflow in a time lock (DASP 3): increasing the lock by 2**256 - lockTime wraps it to zero.
contract LockBox {
    mapping(address => uint256) public balances;
    mapping(address => uint256) public lockTime;

    function deposit() public payable {
        balances[msg.sender] += msg.value; // LABEL: arithmetic
        lockTime[msg.sender] = now + 1 weeks;
    }

    function increaseLockTime(uint256 secondsToIncrease) public {
        lockTime[msg.sender] += secondsToIncrease; // LABEL: arithmetic
    }

    function withdraw() public {
        require(balances[msg.sender] > 0);
        require(now > lockTime[msg.sender]);
        uint256 amount = balances[msg.sender];
        balances[msg.sender] = 0;
        msg.sender.transfer(amount);
    }
}
