pragma solidity 0.4.24;

// Time-locked pot (DASP 8; GovernMental, 2016): whoever calls last wins once a deadline measured in now has passed,
// a deadline a miner can move.
contract LastCallPot {
    address public lastPlayer;
    uint256 public lastPlayed;

    function play() public payable {
        require(msg.value >= 0.1 ether);
        lastPlayer = msg.sender;
        lastPlayed = now;
    }

    function claim() public {
        require(msg.sender == lastPlayer);
        require(now > lastPlayed + 1 hours); // LABEL: time_manipulation
        msg.sender.transfer(address(this).balance);
    }
}
