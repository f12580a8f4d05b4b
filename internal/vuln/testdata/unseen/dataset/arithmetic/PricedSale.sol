pragma solidity 0.6.12;

// Multiplication overflow in a price (DASP 3): tokens * PRICE wraps, so a huge order costs almost nothing.
contract PricedSale {
    uint256 public constant PRICE = 1e15;
    mapping(address => uint256) public tokens;

    function buy(uint256 amount) external payable {
        uint256 cost = amount * PRICE; // LABEL: arithmetic
        require(msg.value == cost, "cost");
        tokens[msg.sender] += amount; // LABEL: arithmetic
    }
}
