pragma solidity 0.5.17;

// Fixed twin of CoinFlipHash: the house commits to a secret's hash and reveals it; no block state decides the payout.
contract CoinFlipCommit {
    address public house;
    bytes32 public commitment;
    mapping(address => bool) public guesses;
    mapping(address => uint256) public bets;

    constructor() public {
        house = msg.sender;
    }

    function commit(bytes32 h) public {
        require(msg.sender == house);
        commitment = h;
    }

    function bet(bool guess) public payable {
        require(msg.value > 0 && msg.value <= 1 ether);
        guesses[msg.sender] = guess;
        bets[msg.sender] = msg.value;
    }

    function settle(address payable player, uint256 secret) public {
        require(msg.sender == house);
        require(keccak256(abi.encodePacked(secret)) == commitment);
        uint256 stake = bets[player];
        bets[player] = 0;
        if ((secret % 2 == 1) == guesses[player]) {
            player.transfer(stake * 2);
        }
    }

    function () external payable {}
}
