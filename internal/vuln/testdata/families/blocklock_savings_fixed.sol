pragma solidity ^0.4.24;

// The fixed twin of BlockLockedSavings: zeroed before the call.
contract BlockLockedSavingsFixed {
    mapping(address => uint256) public savings;
    mapping(address => uint256) public releaseBlock;
    uint256 constant LOCK = 5000;

    function save() public payable {
        require(msg.value > 0);
        savings[msg.sender] += msg.value;
        releaseBlock[msg.sender] = block.number + LOCK;
    }

    function release() public {
        require(block.number >= releaseBlock[msg.sender]);
        uint256 amount = savings[msg.sender];
        require(amount > 0);
        savings[msg.sender] = 0;
        require(msg.sender.call.value(amount)());
    }
}
