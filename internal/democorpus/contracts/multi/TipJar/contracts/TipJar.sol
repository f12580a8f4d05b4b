// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";
import {TipLedger} from "./libraries/TipLedger.sol";

/// @title TipJar
/// @notice Fans tip registered creators in ether; the jar keeps a fee and
/// creators withdraw what they are owed.
contract TipJar is Ownable, ReentrancyGuard {
    using TipLedger for TipLedger.Book;

    uint16 public constant MAX_FEE_BPS = 1000;
    uint256 public constant MIN_TIP = 0.001 ether;

    TipLedger.Book private book;
    uint16 public feeBps = 250;
    uint256 public feesAccrued;
    mapping(address => bool) public creators;

    event Tipped(address indexed fan, address indexed creator, uint256 amount, uint256 fee);
    event Withdrawn(address indexed creator, uint256 amount);

    constructor(address initialOwner) Ownable(initialOwner) {}

    /// @notice Become a creator fans can tip.
    function register() external {
        require(!creators[msg.sender], "TipJar: already registered");
        creators[msg.sender] = true;
    }

    /// @notice Tip `creator` the ether sent, less the fee.
    function tip(address creator) external payable {
        require(creators[creator], "TipJar: not a creator");
        require(msg.value >= MIN_TIP, "TipJar: tip too small");
        uint256 fee = (msg.value * feeBps) / 10_000;
        feesAccrued += fee;
        book.credit(creator, msg.value - fee);
        emit Tipped(msg.sender, creator, msg.value, fee);
    }

    /// @notice Withdraw every tip owed to the caller.
    function withdraw() external nonReentrant {
        uint256 amount = book.settle(msg.sender);
        (bool ok, ) = msg.sender.call{value: amount}("");
        require(ok, "TipJar: payment failed");
        emit Withdrawn(msg.sender, amount);
    }

    /// @notice Set the fee, in basis points of each tip.
    function setFee(uint16 bps) external onlyOwner {
        require(bps <= MAX_FEE_BPS, "TipJar: fee too high");
        feeBps = bps;
    }

    /// @notice Send the accrued fees to the owner.
    function collectFees() external onlyOwner nonReentrant {
        uint256 amount = feesAccrued;
        require(amount > 0, "TipJar: no fees");
        feesAccrued = 0;
        (bool ok, ) = owner().call{value: amount}("");
        require(ok, "TipJar: payment failed");
    }

    /// @notice What `creator` can withdraw.
    function owed(address creator) external view returns (uint256) {
        return book.owed[creator];
    }
}
