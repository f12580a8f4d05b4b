pragma solidity 0.5.17;

// Ether locked (DASP 10, Unknown Unknowns; Parity freeze, 2017): the jar accepts Ether and has no way to send it out.
contract DonationJar {
    mapping(address => uint256) public donated;

    function donate() public payable { // LABEL: locked_ether
        donated[msg.sender] += msg.value;
    }
}
