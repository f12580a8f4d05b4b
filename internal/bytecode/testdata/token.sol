pragma solidity ^0.5.0;

// Token is a small ERC-20-like token with an ether vault and a time lock,
// written to exercise every critical-instruction class of the analysis.
contract Token {
    address public owner;
    uint256 public totalSupply;
    uint256 public unlockTime;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    mapping(address => uint256) public deposits;

    constructor() public {
        owner = msg.sender;
        unlockTime = block.timestamp + 1 days;
    }

    function transfer(address to, uint256 amount) public returns (bool) {
        require(balanceOf[msg.sender] >= amount);
        balanceOf[msg.sender] -= amount;
        balanceOf[to] += amount;
        return true;
    }

    function approve(address spender, uint256 amount) public returns (bool) {
        allowance[msg.sender][spender] = amount;
        return true;
    }

    function transferFrom(address from, address to, uint256 amount) public returns (bool) {
        require(balanceOf[from] >= amount);
        require(allowance[from][msg.sender] >= amount);
        allowance[from][msg.sender] -= amount;
        balanceOf[from] -= amount;
        balanceOf[to] += amount;
        return true;
    }

    function mint(address to, uint256 amount) public {
        require(msg.sender == owner);
        totalSupply += amount;
        balanceOf[to] += amount;
    }

    function deposit() public payable {
        deposits[msg.sender] += msg.value;
    }

    function withdraw(uint256 amount) public {
        require(deposits[msg.sender] >= amount);
        msg.sender.transfer(amount);
        deposits[msg.sender] -= amount;
    }

    function isUnlocked() public view returns (bool) {
        return block.timestamp >= unlockTime;
    }
}
