pragma solidity 0.4.24;

// Bad randomness from blockhash and block.number (DASP 6; SmartBillions, 2017): the flip is known to any
// contract calling in the same block.
contract CoinFlipHash {
    function flip(bool guess) public payable {
        require(msg.value > 0 && msg.value <= 1 ether);
        bool side = uint256(blockhash(block.number - 1)) % 2 == 1; // LABEL: time_manipulation
        if (side == guess) {
            msg.sender.transfer(msg.value * 2);
        }
    }

    function () public payable {}
}
