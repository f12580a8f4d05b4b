pragma solidity 0.6.12;

interface ITokensRecipient {
    function tokensReceived(address from, uint256 amount) external;
}

// ERC-777-style hook reentrancy (DASP 1; imBTC/Uniswap and Lendf.Me, 2020): the sale pays out in Ether
// after calling the buyer's tokensReceived hook, and only then records the sale.
contract HookToken {
    mapping(address => uint256) public balanceOf;
    mapping(address => uint256) public deposits;

    function deposit() public payable {
        deposits[msg.sender] += msg.value;
    }

    function redeem() public {
        uint256 amount = deposits[msg.sender];
        require(amount > 0, "nothing");
        ITokensRecipient(msg.sender).tokensReceived(address(this), amount); // LABEL: reentrancy
        (bool ok, ) = msg.sender.call{value: amount}("");
        require(ok, "send");
        deposits[msg.sender] = 0;
    }
}
