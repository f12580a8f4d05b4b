pragma solidity ^0.4.24;

// Family: funding before payout. A deposit of at least a finney earns a
// one-time bonus; only bonus holders may cash out, paid before booking.
contract BonusPool {
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
        require(msg.sender.call.value(amount)());
        credit[msg.sender] -= amount;
    }
}
