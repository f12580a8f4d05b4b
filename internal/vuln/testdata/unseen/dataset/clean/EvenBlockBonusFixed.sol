pragma solidity 0.8.19;

// Fixed twin of EvenBlockBonus: the stake is paid back as deposited; the block number is only recorded.
contract EvenBlockBonusFixed {
    mapping(address => uint256) public stakes;
    mapping(address => uint256) public stakedAt;

    function stake() external payable {
        stakes[msg.sender] += msg.value;
        stakedAt[msg.sender] = block.number;
    }

    function cashOut() external {
        uint256 amount = stakes[msg.sender];
        require(amount > 0, "none");
        stakes[msg.sender] = 0;
        payable(msg.sender).transfer(amount);
    }
}
