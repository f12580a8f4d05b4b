pragma solidity 0.4.24;

// Multiplication overflow (DASP 3; BeautyChain BEC batchTransfer, 2018): count * value wraps to a small number
// that passes the balance check while every receiver is credited the full value.
contract BatchToken {
    mapping(address => uint256) public balanceOf;

    constructor() public {
        balanceOf[msg.sender] = 1000 ether;
    }

    function batchTransfer(address[] receivers, uint256 value) public returns (bool) {
        uint256 cnt = receivers.length;
        uint256 amount = cnt * value; // LABEL: arithmetic
        require(cnt > 0 && cnt <= 20);
        require(value > 0 && balanceOf[msg.sender] >= amount);
        balanceOf[msg.sender] = balanceOf[msg.sender] - amount;
        for (uint256 i = 0; i < cnt; i++) {
            balanceOf[receivers[i]] = balanceOf[receivers[i]] + value; // LABEL: arithmetic
        }
        return true;
    }
}
