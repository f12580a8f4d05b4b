pragma solidity 0.8.19;

// Block-state branch over a payout (DASP 8): a deposit made in an even block is paid back doubled.
contract EvenBlockBonus {
    mapping(address => uint256) public stakes;

    function stake() external payable {
        stakes[msg.sender] += msg.value;
    }

    function cashOut() external {
        uint256 amount = stakes[msg.sender];
        require(amount > 0, "none");
        stakes[msg.sender] = 0;
        if (block.number % 2 == 0) { // LABEL: time_manipulation
            amount = amount * 2;
        }
        payable(msg.sender).transfer(amount);
    }

    receive() external payable {}
}
