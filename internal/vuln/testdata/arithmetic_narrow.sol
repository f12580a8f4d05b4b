pragma solidity ^0.4.24;

// A uint8 tally: a vote of more than 255 in all wraps it (the sum stays far
// inside 256 bits; only the type's cleanup truncates it).
contract NarrowTally {
    uint8 public votes;

    function vote(uint8 n) public {
        votes = votes + n;
    }

    // No critical instruction on its path: not a SAEFUZZ candidate.
    function ping() public {}
}

// The same tally, checked against the type's range.
contract CheckedTally {
    uint8 public votes;

    function vote(uint8 n) public {
        require(uint256(votes) + uint256(n) <= 255);
        votes = votes + n;
    }
}
