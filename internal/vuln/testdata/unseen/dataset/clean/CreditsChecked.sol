pragma solidity 0.8.19;

// Fixed twin of CreditsUnchecked: checked subtraction.
contract CreditsChecked {
    mapping(address => uint256) public credits;

    function grant(address to, uint256 amount) external {
        credits[to] = amount;
    }

    function spend(uint256 amount) external {
        credits[msg.sender] -= amount;
    }
}
