pragma solidity 0.5.17;

// Bad randomness from block.difficulty and now (DASP 6; Fomo3D-style draws, 2018): the winner of the draw is
// predictable to a miner or a contract calling in the same block.
contract DifficultyDraw {
    address payable[] public players;

    function enter() public payable {
        require(msg.value == 0.1 ether);
        players.push(msg.sender);
        if (players.length >= 3) {
            uint256 pick = uint256(keccak256(abi.encodePacked(block.difficulty, now, players.length))) % players.length; // LABEL: time_manipulation
            players[pick].transfer(address(this).balance);
            delete players;
        }
    }

    function () external payable {}
}
