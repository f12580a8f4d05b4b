pragma solidity ^0.4.24;

// The fixed twin of HolderBank: the holder's balance is booked before the
// helper pays.
contract HolderBankFixed {
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
            holders[holder] -= amount;
            require(sendTo(holder, amount));
        }
    }

    function sendTo(address to, uint256 amount) internal returns (bool) {
        return to.call.value(amount)();
    }
}
