pragma solidity 0.8.19;

// Reentrancy through call{value:} in 0.8 (DASP 1): checked arithmetic does not stop it, the debit comes after the call.
contract PiggyBank {
    mapping(address => uint256) public saved;

    function save() external payable {
        saved[msg.sender] += msg.value;
    }

    function take(uint256 amount) external {
        require(saved[msg.sender] >= amount, "too much");
        (bool ok, ) = msg.sender.call{value: amount}(""); // LABEL: reentrancy
        require(ok, "send");
        unchecked {
            saved[msg.sender] -= amount; // LABEL: arithmetic
        }
    }
}
