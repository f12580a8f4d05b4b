pragma solidity ^0.4.24;

interface GrantReceiver {
    function onGrant() external;
}

// The fixed twin of TokenGrant: the notification comes after the body.
contract TokenGrantFixed {
    mapping(address => uint256) public tokens;

    modifier noTokens() {
        require(tokens[msg.sender] == 0);
        _;
    }

    modifier notifies() {
        _;
        GrantReceiver(msg.sender).onGrant();
    }

    function grant() public noTokens notifies {
        tokens[msg.sender] += 10;
    }

    function redeem() public {
        uint256 t = tokens[msg.sender];
        require(t > 0);
        tokens[msg.sender] = 0;
        msg.sender.transfer(t * 1 finney);
    }
}
