pragma solidity 0.6.12;

interface ITokensRecipient {
    function tokensReceived(address from, uint256 amount) external;
}

// Fixed twin of HookToken: the deposit is cleared before the hook and the payment.
contract HookTokenFixed {
    mapping(address => uint256) public balanceOf;
    mapping(address => uint256) public deposits;

    function deposit() public payable {
        deposits[msg.sender] += msg.value;
    }

    function redeem() public {
        uint256 amount = deposits[msg.sender];
        require(amount > 0, "nothing");
        deposits[msg.sender] = 0;
        ITokensRecipient(msg.sender).tokensReceived(address(this), amount);
        (bool ok, ) = msg.sender.call{value: amount}("");
        require(ok, "send");
    }
}
