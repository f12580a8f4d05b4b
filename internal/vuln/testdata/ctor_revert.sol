pragma solidity ^0.4.24;

// Refuses the zero values of its constructor arguments.
contract Supply {
    uint256 public total;

    constructor(uint256 supply) public {
        require(supply > 0);
        total = supply;
    }

    function burn(uint256 n) public {
        total -= n;
    }
}
