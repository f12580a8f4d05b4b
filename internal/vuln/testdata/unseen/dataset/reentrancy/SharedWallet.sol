pragma solidity 0.4.24;

// Cross-function reentrancy (DASP 1): during withdraw's call the caller moves its not yet cleared balance
// with transfer(), then withdraw clears only what it had read.
contract SharedWallet {
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
            if (!msg.sender.call.value(amount)()) { // LABEL: reentrancy
                revert();
            }
            credit[msg.sender] = 0;
        }
    }

    function creditOf(address who) public view returns (uint256) {
        return credit[who];
    }
}
