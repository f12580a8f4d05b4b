pragma solidity ^0.4.24;

// A bet that sends the stake back on a block divisible by three. The bet
// takes no Ether, so the stake sent back is 0 wei: the block still decides
// whether the payout runs.
contract LuckyBlockRefund {
    mapping(address => uint256) public wins;

    function bet() public {
        if (block.number % 3 == 0) {
            wins[msg.sender] += 1;
            require(msg.sender.send(msg.value));
        }
    }
}

// The same payout on every third bet of a player: no block decides it.
contract ThirdBetRefund {
    mapping(address => uint256) public bets;

    function bet() public {
        bets[msg.sender] += 1;
        if (bets[msg.sender] % 3 == 0) {
            require(msg.sender.send(msg.value));
        }
    }
}

// The same refund once an hour has passed since the last bet: a deadline,
// which a miner moves by seconds only, not a draw.
contract HourlyRefund {
    uint256 public lastBet;

    function bet() public {
        if (now > lastBet + 1 hours) {
            require(msg.sender.send(msg.value));
        }
        lastBet = now;
    }
}
