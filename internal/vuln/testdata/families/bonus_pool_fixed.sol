pragma solidity ^0.4.24;

// The fixed twin of BonusPool: the credit is booked before the call.
contract BonusPoolFixed {
    mapping(address => uint256) public credit;
    mapping(address => bool) public claimedBonus;
    uint256 public constant BONUS = 1 finney;

    function deposit() public payable {
        require(msg.value >= 1 finney);
        credit[msg.sender] += msg.value;
    }

    function claimBonus() public {
        require(credit[msg.sender] > 0 && !claimedBonus[msg.sender]);
        claimedBonus[msg.sender] = true;
        credit[msg.sender] += BONUS;
    }

    function cashOut(uint256 amount) public {
        require(claimedBonus[msg.sender]);
        require(amount > 0 && credit[msg.sender] >= amount);
        credit[msg.sender] -= amount;
        require(msg.sender.call.value(amount)());
    }
}
