// SPDX-License-Identifier: MIT
pragma solidity 0.8.19;

/// @title StakingPool
/// @notice Stake ether and earn reward points at a rate the owner sets, shared among stakers in
/// proportion to their stake and the time it was staked. Claimed points live in the pool's own
/// ledger and can be moved between accounts.
contract StakingPool {
    string public constant rewardSymbol = "PRP";

    address public owner;
    bool public paused;
    uint256 public minStake = 0.01 ether;

    uint256 public rewardRate;
    uint256 public lastUpdateTime;
    uint256 public rewardPerTokenStored;
    uint256 public totalStaked;
    uint256 public totalRewardsClaimed;

    mapping(address => uint256) public stakedBalance;
    mapping(address => uint256) public userRewardPerTokenPaid;
    mapping(address => uint256) public rewards;
    mapping(address => uint256) public rewardBalance;

    event Staked(address indexed user, uint256 amount);
    event Withdrawn(address indexed user, uint256 amount);
    event RewardPaid(address indexed user, uint256 reward);
    event RewardTransferred(address indexed from, address indexed to, uint256 amount);
    event RewardRateChanged(uint256 rewardRate);
    event Paused(bool paused);
    event MinStakeChanged(uint256 minStake);
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    modifier onlyOwner() {
        require(msg.sender == owner, "StakingPool: caller is not the owner");
        _;
    }

    modifier whenNotPaused() {
        require(!paused, "StakingPool: paused");
        _;
    }

    modifier updateReward(address account) {
        rewardPerTokenStored = rewardPerToken();
        lastUpdateTime = block.timestamp;
        if (account != address(0)) {
            rewards[account] = earned(account);
            userRewardPerTokenPaid[account] = rewardPerTokenStored;
        }
        _;
    }

    constructor(uint256 rewardRate_) {
        owner = msg.sender;
        rewardRate = rewardRate_;
        lastUpdateTime = block.timestamp;
    }

    function rewardPerToken() public view returns (uint256) {
        if (totalStaked == 0) {
            return rewardPerTokenStored;
        }
        return rewardPerTokenStored + ((block.timestamp - lastUpdateTime) * rewardRate * 1e18) / totalStaked;
    }

    function earned(address account) public view returns (uint256) {
        return (stakedBalance[account] * (rewardPerToken() - userRewardPerTokenPaid[account])) / 1e18
            + rewards[account];
    }

    /// @notice Stake the ether sent.
    function stake() external payable whenNotPaused updateReward(msg.sender) {
        require(msg.value >= minStake, "StakingPool: stake below minimum");
        totalStaked += msg.value;
        stakedBalance[msg.sender] += msg.value;
        emit Staked(msg.sender, msg.value);
    }

    /// @notice Take `amount` of the caller's stake back.
    function withdraw(uint256 amount) public updateReward(msg.sender) {
        require(amount > 0, "StakingPool: cannot withdraw 0");
        require(stakedBalance[msg.sender] >= amount, "StakingPool: withdraw amount exceeds stake");
        totalStaked -= amount;
        stakedBalance[msg.sender] -= amount;
        (bool sent, ) = payable(msg.sender).call{value: amount}("");
        require(sent, "StakingPool: transfer failed");
        emit Withdrawn(msg.sender, amount);
    }

    /// @notice Move the caller's accrued reward into their reward balance.
    function claimReward() public updateReward(msg.sender) {
        uint256 reward = rewards[msg.sender];
        require(reward > 0, "StakingPool: no reward");
        rewards[msg.sender] = 0;
        rewardBalance[msg.sender] += reward;
        totalRewardsClaimed += reward;
        emit RewardPaid(msg.sender, reward);
    }

    /// @notice Withdraw the whole stake and claim the reward.
    function exit() external {
        withdraw(stakedBalance[msg.sender]);
        if (rewards[msg.sender] > 0) {
            claimReward();
        }
    }

    /// @notice Move claimed reward points to another account.
    function transferReward(address to, uint256 amount) external {
        require(to != address(0), "StakingPool: transfer to the zero address");
        require(rewardBalance[msg.sender] >= amount, "StakingPool: amount exceeds reward balance");
        rewardBalance[msg.sender] -= amount;
        rewardBalance[to] += amount;
        emit RewardTransferred(msg.sender, to, amount);
    }

    /// @notice Change the pool's reward points per second.
    function setRewardRate(uint256 newRate) external onlyOwner updateReward(address(0)) {
        rewardRate = newRate;
        emit RewardRateChanged(newRate);
    }

    /// @notice Stop or resume new stakes.
    function setPaused(bool paused_) external onlyOwner {
        paused = paused_;
        emit Paused(paused_);
    }

    /// @notice Change the smallest stake accepted.
    function setMinStake(uint256 minStake_) external onlyOwner {
        minStake = minStake_;
        emit MinStakeChanged(minStake_);
    }

    /// @notice Hand the pool to a new owner.
    function transferOwnership(address newOwner) external onlyOwner {
        require(newOwner != address(0), "StakingPool: new owner is the zero address");
        emit OwnershipTransferred(owner, newOwner);
        owner = newOwner;
    }
}
