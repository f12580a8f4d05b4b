pragma solidity ^0.4.24;

// The fixed twin of MutexWallet: the balance is zeroed before the call.
contract MutexWalletFixed {
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
        balances[msg.sender] = 0;
        require(msg.sender.call.value(amount)());
        paying = false;
    }
}
