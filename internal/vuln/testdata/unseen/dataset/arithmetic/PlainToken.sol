pragma solidity 0.4.24;

// Integer underflow (DASP 3): the balance check is itself computed in wrapping arithmetic, so any transfer passes.
contract PlainToken {
    mapping(address => uint256) public balanceOf;
    uint256 public totalSupply;

    constructor() public {
        totalSupply = 1000000;
        balanceOf[msg.sender] = totalSupply;
    }

    function transfer(address to, uint256 value) public returns (bool) {
        require(balanceOf[msg.sender] - value >= 0);
        balanceOf[msg.sender] -= value; // LABEL: arithmetic
        balanceOf[to] += value; // LABEL: arithmetic
        return true;
    }
}
