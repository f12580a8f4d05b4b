pragma solidity 0.8.19;

// Unchecked block in 0.8 (DASP 3): the gas-saving unchecked subtraction wraps a credit balance.
contract CreditsUnchecked {
    mapping(address => uint256) public credits;

    function grant(address to, uint256 amount) external {
        credits[to] = amount;
    }

    function spend(uint256 amount) external {
        unchecked {
            credits[msg.sender] -= amount; // LABEL: arithmetic
        }
    }
}
