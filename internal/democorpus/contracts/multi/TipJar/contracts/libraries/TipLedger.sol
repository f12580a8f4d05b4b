// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title TipLedger
/// @notice What a tip jar owes each creator. Deployed once and linked:
/// its functions run on the caller's storage through DELEGATECALL.
library TipLedger {
    struct Book {
        mapping(address => uint256) owed;
        uint256 totalOwed;
        uint256 tips;
    }

    /// @notice Owe `amount` more to `creator`.
    function credit(Book storage book, address creator, uint256 amount) public {
        book.owed[creator] += amount;
        book.totalOwed += amount;
        book.tips += 1;
    }

    /// @notice Clear what is owed to `creator` and return it.
    function settle(Book storage book, address creator) public returns (uint256 amount) {
        amount = book.owed[creator];
        require(amount > 0, "TipLedger: nothing owed");
        book.owed[creator] = 0;
        book.totalOwed -= amount;
    }
}
