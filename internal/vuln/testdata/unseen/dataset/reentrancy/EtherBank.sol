pragma solidity 0.4.24;

// Reentrancy through call.value (DASP 1; The DAO, 2016): the balance is zeroed after the call.
contract EtherBank {
    mapping(address => uint256) public balances;

    function deposit() public payable {
        balances[msg.sender] += msg.value;
    }

    function withdrawAll() public {
        uint256 amount = balances[msg.sender];
        require(amount > 0);
        require(msg.sender.call.value(amount)()); // LABEL: reentrancy
        balances[msg.sender] = 0;
    }
}
