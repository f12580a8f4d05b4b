pragma solidity 0.8.19;

// Ether locked (DASP 10): the presale collects payments; its refund path was never written.
contract PresaleVault {
    mapping(address => uint256) public paid;
    uint256 public raised;

    receive() external payable { // LABEL: locked_ether
        paid[msg.sender] += msg.value;
        raised += msg.value;
    }
}
