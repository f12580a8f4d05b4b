pragma solidity 0.7.6;

// Underflow before 0.8 (DASP 3): points are redeemed without a check and wrap to a huge balance.
contract RewardPoolV7 {
    mapping(address => uint256) public points;

    function earn() external payable {
        points[msg.sender] += msg.value / 1e9; // LABEL: arithmetic
    }

    function redeem(uint256 amount) external {
        points[msg.sender] -= amount; // LABEL: arithmetic
    }
}
