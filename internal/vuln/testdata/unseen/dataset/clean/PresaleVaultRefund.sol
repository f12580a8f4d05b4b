pragma solidity 0.8.19;

// Fixed twin of PresaleVault: payers can take their payment back.
contract PresaleVaultRefund {
    mapping(address => uint256) public paid;
    uint256 public raised;

    receive() external payable {
        paid[msg.sender] += msg.value;
        raised += msg.value;
    }

    function refund() external {
        uint256 amount = paid[msg.sender];
        paid[msg.sender] = 0;
        raised -= amount;
        payable(msg.sender).transfer(amount);
    }
}
