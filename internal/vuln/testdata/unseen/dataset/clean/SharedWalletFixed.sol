pragma solidity 0.4.24;

// Fixed twin of SharedWallet: the credit is cleared before the call.
contract SharedWalletFixed {
    mapping(address => uint256) private credit;

    function deposit() public payable {
        credit[msg.sender] += msg.value;
    }

    function transfer(address to, uint256 amount) public {
        if (credit[msg.sender] >= amount) {
            credit[to] += amount;
            credit[msg.sender] -= amount;
        }
    }

    function withdraw() public {
        uint256 amount = credit[msg.sender];
        if (amount > 0) {
            credit[msg.sender] = 0;
            if (!msg.sender.call.value(amount)()) {
                revert();
            }
        }
    }

    function creditOf(address who) public view returns (uint256) {
        return credit[who];
    }
}
