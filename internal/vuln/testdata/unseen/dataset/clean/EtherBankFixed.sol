pragma solidity 0.4.24;

// Fixed twin of EtherBank: checks-effects-interactions.
contract EtherBankFixed {
    mapping(address => uint256) public balances;

    function deposit() public payable {
        balances[msg.sender] += msg.value;
    }

    function withdrawAll() public {
        uint256 amount = balances[msg.sender];
        require(amount > 0);
        balances[msg.sender] = 0;
        require(msg.sender.call.value(amount)());
    }
}
