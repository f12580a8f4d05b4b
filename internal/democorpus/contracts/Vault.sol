pragma solidity ^0.4.24;

contract Vault {
    uint256 public balance;
    bool public initialized;

    /// @notice Initialise the vault.
    function initialize() public {
        balance = 0;
        initialized = true;
    }

    /// @notice Add `amount` to the balance.
    function deposit(uint256 amount) public {
        balance += amount;
    }

    /// @notice Withdraw `amount` from the balance.
    function withdraw(uint256 amount) public {
        require(initialized);
        require(balance >= amount);
        balance -= amount;
    }
}
