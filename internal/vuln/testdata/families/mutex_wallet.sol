pragma solidity ^0.4.24;

// Family: cross-function reentrancy. withdrawAll cannot be re-entered (a
// mutex), but transfer can: during the call the attacker moves the balance
// withdrawAll is about to pay and zero to another account.
contract MutexWallet {
    mapping(address => uint256) public balances;
    bool private paying;

    function deposit() public payable {
        balances[msg.sender] += msg.value;
    }

    function transfer(address to, uint256 amount) public {
        require(balances[msg.sender] >= amount);
        balances[to] += amount;
        balances[msg.sender] -= amount;
    }

    function withdrawAll() public {
        require(!paying);
        paying = true;
        uint256 amount = balances[msg.sender];
        require(msg.sender.call.value(amount)());
        balances[msg.sender] = 0;
        paying = false;
    }
}
