pragma solidity ^0.4.24;

interface GrantReceiver {
    function onGrant() external;
}

// Family: modifier-based reentrancy without Ether in the call. A modifier
// notifies the caller (a value-less callback) after the no-tokens check and
// before the body grants: re-entered, the grant is given twice.
contract TokenGrant {
    mapping(address => uint256) public tokens;

    modifier noTokens() {
        require(tokens[msg.sender] == 0);
        _;
    }

    modifier notifies() {
        GrantReceiver(msg.sender).onGrant();
        _;
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
