pragma solidity 0.5.17;

interface IRewardListener {
    function onReward(uint256 amount) external;
}

// Cross-contract reentrancy (DASP 1): the claimant's contract is notified before the claim is recorded,
// so it can claim again from inside the notification and be paid twice.
contract RewardNotifier {
    mapping(address => bool) public claimed;
    uint256 public reward = 1 ether;

    function fund() public payable {}

    function claim() public {
        require(!claimed[msg.sender]);
        IRewardListener(msg.sender).onReward(reward); // LABEL: reentrancy
        msg.sender.transfer(reward);
        claimed[msg.sender] = true;
    }
}
