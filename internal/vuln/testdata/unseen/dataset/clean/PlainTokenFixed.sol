pragma solidity 0.4.24;

// Fixed twin of PlainToken: the balance is compared before subtracting and the sum is checked.
contract PlainTokenFixed {
    mapping(address => uint256) public balanceOf;
    uint256 public totalSupply;

    constructor() public {
        totalSupply = 1000000;
        balanceOf[msg.sender] = totalSupply;
    }

    function transfer(address to, uint256 value) public returns (bool) {
        require(balanceOf[msg.sender] >= value);
        require(balanceOf[to] + value >= balanceOf[to]);
        balanceOf[msg.sender] -= value;
        balanceOf[to] += value;
        return true;
    }
}
