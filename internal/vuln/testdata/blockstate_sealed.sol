pragma solidity ^0.4.24;

// A number sealed at deployment from the previous block's hash and the
// time: whoever knows the deployment's block can name it and take the pot.
contract SealedNumber {
    uint256 private secret;

    constructor() public {
        secret = uint256(keccak256(abi.encodePacked(blockhash(block.number - 1), block.timestamp))) % 100;
    }

    function open(uint256 n) public payable {
        require(msg.value >= 0.1 ether);
        if (n == secret) {
            msg.sender.transfer(address(this).balance);
        }
    }
}

// The same game with a number the deployer chose: no block decides it.
contract ChosenNumber {
    uint256 private secret;

    constructor() public {
        secret = 42;
    }

    function open(uint256 n) public payable {
        require(msg.value >= 0.1 ether);
        if (n == secret) {
            msg.sender.transfer(address(this).balance);
        }
    }
}
