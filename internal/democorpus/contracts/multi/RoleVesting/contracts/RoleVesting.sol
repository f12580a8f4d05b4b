// SPDX-License-Identifier: MIT
pragma solidity ^0.8.9;

import "@openzeppelin/contracts/access/AccessControl.sol";
import "@openzeppelin/contracts/security/ReentrancyGuard.sol";

/// @title RoleVesting
/// @notice Ether vested linearly after a cliff. Accounts with the vester
/// role fund schedules; beneficiaries release what has vested; the admin
/// can revoke a schedule and take back what has not.
contract RoleVesting is AccessControl, ReentrancyGuard {
    bytes32 public constant VESTER_ROLE = keccak256("VESTER_ROLE");

    struct Schedule {
        address beneficiary;
        uint64 start;
        uint64 cliff;
        uint64 duration;
        uint256 total;
        uint256 released;
        bool revoked;
    }

    Schedule[] public schedules;

    event ScheduleCreated(uint256 indexed id, address indexed beneficiary, uint256 total);
    event Released(uint256 indexed id, uint256 amount);
    event Revoked(uint256 indexed id, uint256 refund);

    constructor(address admin) {
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
    }

    /// @notice Vest the ether sent to `beneficiary` from `start` over
    /// `duration` seconds, nothing before `cliffSeconds` have passed.
    function createSchedule(address beneficiary, uint64 start, uint64 cliffSeconds, uint64 duration)
        external
        payable
        onlyRole(VESTER_ROLE)
        returns (uint256 id)
    {
        require(beneficiary != address(0), "RoleVesting: zero beneficiary");
        require(msg.value > 0, "RoleVesting: nothing to vest");
        require(duration > 0 && cliffSeconds <= duration, "RoleVesting: bad duration");
        id = schedules.length;
        schedules.push(Schedule(beneficiary, start, start + cliffSeconds, duration, msg.value, 0, false));
        emit ScheduleCreated(id, beneficiary, msg.value);
    }

    /// @notice Pay schedule `id`'s beneficiary what has vested and is unpaid.
    function release(uint256 id) external nonReentrant {
        Schedule storage s = schedules[id];
        require(msg.sender == s.beneficiary, "RoleVesting: caller is not the beneficiary");
        uint256 amount = vestedAmount(id, uint64(block.timestamp)) - s.released;
        require(amount > 0, "RoleVesting: nothing to release");
        s.released += amount;
        (bool ok, ) = s.beneficiary.call{value: amount}("");
        require(ok, "RoleVesting: payment failed");
        emit Released(id, amount);
    }

    /// @notice Stop schedule `id`: what has vested stays due, the rest goes
    /// back to the admin.
    function revoke(uint256 id) external onlyRole(DEFAULT_ADMIN_ROLE) nonReentrant {
        Schedule storage s = schedules[id];
        require(!s.revoked, "RoleVesting: already revoked");
        uint256 vested = vestedAmount(id, uint64(block.timestamp));
        uint256 refund = s.total - vested;
        s.revoked = true;
        s.total = vested;
        (bool ok, ) = msg.sender.call{value: refund}("");
        require(ok, "RoleVesting: refund failed");
        emit Revoked(id, refund);
    }

    /// @notice What schedule `id` has vested by time `at`.
    function vestedAmount(uint256 id, uint64 at) public view returns (uint256) {
        Schedule storage s = schedules[id];
        if (s.revoked || at >= s.start + s.duration) {
            return s.total;
        }
        if (at < s.cliff) {
            return 0;
        }
        return (s.total * (at - s.start)) / s.duration;
    }

    /// @notice How many schedules exist.
    function scheduleCount() external view returns (uint256) {
        return schedules.length;
    }
}
