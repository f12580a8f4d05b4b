pragma solidity ^0.4.24;

/**
 * @title EtherLocker
 * @dev Anyone can lock ether for a beneficiary until a release time; the beneficiary takes it out
 * once the time has passed. The operator (owner) may postpone a release, for instance to honour a
 * vesting agreement, but can never take the ether.
 */
contract EtherLocker {
    struct Lock {
        address depositor;
        address beneficiary;
        uint256 amount;
        uint256 releaseTime;
        bool released;
    }

    address public owner;
    uint256 public minLockDuration = 1 days;
    uint256 public lockCount;
    uint256 public totalLocked;
    mapping(uint256 => Lock) public locks;

    event Locked(uint256 indexed lockId, address indexed depositor, address indexed beneficiary, uint256 amount, uint256 releaseTime);
    event Released(uint256 indexed lockId, address indexed beneficiary, uint256 amount);
    event LockExtended(uint256 indexed lockId, uint256 releaseTime);
    event MinLockDurationChanged(uint256 duration);
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    modifier onlyOwner() {
        require(msg.sender == owner);
        _;
    }

    constructor() public {
        owner = msg.sender;
    }

    /// @notice Lock the ether sent for `beneficiary` until `releaseTime`.
    function lock(address beneficiary, uint256 releaseTime) public payable returns (uint256 lockId) {
        require(msg.value > 0);
        require(beneficiary != address(0));
        require(releaseTime >= now + minLockDuration);
        lockId = lockCount;
        locks[lockId] = Lock({
            depositor: msg.sender,
            beneficiary: beneficiary,
            amount: msg.value,
            releaseTime: releaseTime,
            released: false
        });
        lockCount += 1;
        totalLocked += msg.value;
        emit Locked(lockId, msg.sender, beneficiary, msg.value, releaseTime);
    }

    /// @notice Pay a lock out to its beneficiary once its release time has passed.
    function release(uint256 lockId) public {
        Lock storage l = locks[lockId];
        require(msg.sender == l.beneficiary);
        require(!l.released);
        require(now >= l.releaseTime);
        l.released = true;
        totalLocked -= l.amount;
        l.beneficiary.transfer(l.amount);
        emit Released(lockId, l.beneficiary, l.amount);
    }

    /// @notice Postpone the release of a lock.
    function extendLock(uint256 lockId, uint256 newReleaseTime) public onlyOwner {
        Lock storage l = locks[lockId];
        require(l.amount > 0);
        require(!l.released);
        require(newReleaseTime > l.releaseTime);
        l.releaseTime = newReleaseTime;
        emit LockExtended(lockId, newReleaseTime);
    }

    /// @notice Change the shortest lock accepted.
    function setMinLockDuration(uint256 duration) public onlyOwner {
        minLockDuration = duration;
        emit MinLockDurationChanged(duration);
    }

    /// @notice Hand the contract to a new owner.
    function transferOwnership(address newOwner) public onlyOwner {
        require(newOwner != address(0));
        emit OwnershipTransferred(owner, newOwner);
        owner = newOwner;
    }

    function releasableAt(uint256 lockId) public view returns (uint256) {
        return locks[lockId].releaseTime;
    }
}
