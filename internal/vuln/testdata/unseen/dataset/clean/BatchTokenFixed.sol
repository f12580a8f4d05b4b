pragma solidity 0.4.24;

// Fixed twin of BatchToken: SafeMath-style checked multiplication and addition.
contract BatchTokenFixed {
    mapping(address => uint256) public balanceOf;

    constructor() public {
        balanceOf[msg.sender] = 1000 ether;
    }

    function mul(uint256 a, uint256 b) internal pure returns (uint256) {
        if (a == 0) return 0;
        uint256 c = a * b;
        require(c / a == b);
        return c;
    }

    function add(uint256 a, uint256 b) internal pure returns (uint256) {
        uint256 c = a + b;
        require(c >= a);
        return c;
    }

    function batchTransfer(address[] receivers, uint256 value) public returns (bool) {
        uint256 cnt = receivers.length;
        uint256 amount = mul(cnt, value);
        require(cnt > 0 && cnt <= 20);
        require(value > 0 && balanceOf[msg.sender] >= amount);
        balanceOf[msg.sender] = balanceOf[msg.sender] - amount;
        for (uint256 i = 0; i < cnt; i++) {
            balanceOf[receivers[i]] = add(balanceOf[receivers[i]], value);
        }
        return true;
    }
}
