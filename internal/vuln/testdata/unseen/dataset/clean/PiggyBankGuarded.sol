pragma solidity 0.8.19;

// Fixed twin of PiggyBank: a reentrancy guard and the debit before the call.
contract PiggyBankGuarded {
    mapping(address => uint256) public saved;
    bool private locked;

    modifier nonReentrant() {
        require(!locked, "reentrant");
        locked = true;
        _;
        locked = false;
    }

    function save() external payable {
        saved[msg.sender] += msg.value;
    }

    function take(uint256 amount) external nonReentrant {
        require(saved[msg.sender] >= amount, "too much");
        saved[msg.sender] -= amount;
        (bool ok, ) = msg.sender.call{value: amount}("");
        require(ok, "send");
    }
}
