pragma solidity ^0.4.24;

// Family: time-locked withdrawals. A deposit sets an unlock time; once it
// has passed and the balance reaches a minimum, collect pays before it books.
contract TimeLockedVault {
    struct Account {
        uint256 balance;
        uint256 unlockTime;
    }

    mapping(address => Account) public accounts;
    uint256 public minSum = 1 finney;

    function put(uint256 unlockTime) public payable {
        Account storage a = accounts[msg.sender];
        a.balance += msg.value;
        a.unlockTime = unlockTime > now ? unlockTime : now;
    }

    function collect(uint256 amount) public {
        Account storage a = accounts[msg.sender];
        if (a.balance >= minSum && a.balance >= amount && now > a.unlockTime) {
            if (msg.sender.call.value(amount)()) {
                a.balance -= amount;
            }
        }
    }
}
