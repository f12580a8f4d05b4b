pragma solidity ^0.8.19;

// 0.8 checks arithmetic, but not inside unchecked: the wrap is stored.
contract UncheckedCounter {
    mapping(address => uint256) public credit;

    function spend(uint256 amount) public {
        unchecked {
            credit[msg.sender] -= amount;
        }
    }
}
