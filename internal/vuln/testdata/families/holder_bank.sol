pragma solidity ^0.4.24;

// Family: payout through a helper. Anyone can become the owner; the owner
// pays a holder through an internal helper, booking only after it returns.
contract HolderBank {
    address public owner;
    uint256 public minDeposit;
    mapping(address => uint256) public holders;

    modifier onlyOwner() {
        require(msg.sender == owner);
        _;
    }

    function initBank() public {
        owner = msg.sender;
        minDeposit = 1 finney;
    }

    function deposit() public payable {
        require(msg.value > minDeposit);
        holders[msg.sender] += msg.value;
    }

    function withdrawToHolder(address holder, uint256 amount) public onlyOwner {
        if (holders[holder] > 0) {
            if (sendTo(holder, amount)) {
                holders[holder] -= amount;
            }
        }
    }

    function sendTo(address to, uint256 amount) internal returns (bool) {
        return to.call.value(amount)();
    }
}
