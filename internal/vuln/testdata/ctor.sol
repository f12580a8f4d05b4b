pragma solidity ^0.4.24;

// A constructor with arguments of every kind the default encoder must
// produce: the stage deploys labelled files with zero values.
contract Configured {
    address public admin;
    uint256 public limit;
    string public label;
    uint256[2] public pair;

    constructor(address _admin, uint256 _limit, string _label, uint256[2] _pair, bytes32[] _tags) public payable {
        admin = _admin;
        limit = _limit;
        label = _label;
        pair = _pair;
        require(_tags.length == 0);
    }
}
