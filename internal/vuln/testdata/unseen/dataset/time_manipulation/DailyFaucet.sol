pragma solidity 0.7.6;

// Time lock on a faucet (DASP 8): the drip is paid once a day by block.timestamp and grows with the time waited.
contract DailyFaucet {
    mapping(address => uint256) public lastDrip;

    receive() external payable {}

    function drip() external {
        uint256 waited = block.timestamp - lastDrip[msg.sender];
        require(waited >= 1 days, "wait");
        lastDrip[msg.sender] = block.timestamp;
        uint256 amount = (waited / 1 days) * 0.01 ether; // LABEL: time_manipulation
        msg.sender.transfer(amount);
    }
}
