// SPDX-License-Identifier: MIT
pragma solidity 0.8.19;

/// @title TimedCrowdsale
/// @notice A capped token sale that is open between two times and has a funding goal. Buyers pay
/// in ether while the sale is open; after it closes the owner finalizes it. If the goal was reached
/// the ether goes to the wallet and buyers claim their tokens, otherwise buyers claim a refund.
contract TimedCrowdsale {
    string public constant name = "Harbor Token";
    string public constant symbol = "HBR";
    uint8 public constant decimals = 18;

    address public owner;
    address payable public wallet;
    uint256 public rate;
    uint256 public openingTime;
    uint256 public closingTime;
    uint256 public cap;
    uint256 public goal;
    uint256 public minContribution = 0.05 ether;
    uint256 public weiRaised;
    bool public finalized;

    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => uint256) public contributions;
    mapping(address => uint256) public tokensOwed;

    event TokensPurchased(address indexed purchaser, address indexed beneficiary, uint256 value, uint256 amount);
    event Finalized(bool goalReached, uint256 weiRaised);
    event Refunded(address indexed beneficiary, uint256 value);
    event Transfer(address indexed from, address indexed to, uint256 value);
    event RateChanged(uint256 rate);
    event ClosingTimeExtended(uint256 previousClosingTime, uint256 newClosingTime);
    event WalletChanged(address wallet);

    modifier onlyOwner() {
        require(msg.sender == owner, "Crowdsale: caller is not the owner");
        _;
    }

    modifier onlyWhileOpen() {
        require(isOpen(), "Crowdsale: not open");
        _;
    }

    constructor(
        address payable wallet_,
        uint256 rate_,
        uint256 openingTime_,
        uint256 closingTime_,
        uint256 cap_,
        uint256 goal_
    ) {
        require(wallet_ != address(0), "Crowdsale: wallet is the zero address");
        require(rate_ > 0, "Crowdsale: rate is 0");
        require(openingTime_ >= block.timestamp, "Crowdsale: opening time is before current time");
        require(closingTime_ > openingTime_, "Crowdsale: opening time is not before closing time");
        require(goal_ > 0 && goal_ <= cap_, "Crowdsale: goal is not within cap");
        owner = msg.sender;
        wallet = wallet_;
        rate = rate_;
        openingTime = openingTime_;
        closingTime = closingTime_;
        cap = cap_;
        goal = goal_;
    }

    /// @notice Sending ether buys tokens for the sender.
    receive() external payable {
        buyTokens(msg.sender);
    }

    /// @notice Buy tokens for `beneficiary`; they become claimable once the sale succeeds.
    function buyTokens(address beneficiary) public payable onlyWhileOpen {
        require(beneficiary != address(0), "Crowdsale: beneficiary is the zero address");
        require(msg.value >= minContribution, "Crowdsale: contribution too small");
        require(weiRaised + msg.value <= cap, "Crowdsale: cap exceeded");
        uint256 tokens = msg.value * rate;
        weiRaised += msg.value;
        contributions[beneficiary] += msg.value;
        tokensOwed[beneficiary] += tokens;
        emit TokensPurchased(msg.sender, beneficiary, msg.value, tokens);
    }

    /// @notice Close the books once the sale is over; a successful sale pays the wallet.
    function finalize() external onlyOwner {
        require(!finalized, "Crowdsale: already finalized");
        require(hasClosed(), "Crowdsale: not closed");
        finalized = true;
        bool success = goalReached();
        if (success) {
            wallet.transfer(address(this).balance);
        }
        emit Finalized(success, weiRaised);
    }

    /// @notice Take the tokens bought, after a successful sale.
    function claimTokens() external {
        require(finalized && goalReached(), "Crowdsale: tokens not claimable");
        uint256 amount = tokensOwed[msg.sender];
        require(amount > 0, "Crowdsale: nothing to claim");
        tokensOwed[msg.sender] = 0;
        totalSupply += amount;
        balanceOf[msg.sender] += amount;
        emit Transfer(address(0), msg.sender, amount);
    }

    /// @notice Take the ether paid back, after a sale that missed its goal.
    function claimRefund() external {
        require(finalized && !goalReached(), "Crowdsale: refunds not available");
        uint256 amount = contributions[msg.sender];
        require(amount > 0, "Crowdsale: nothing to refund");
        contributions[msg.sender] = 0;
        tokensOwed[msg.sender] = 0;
        (bool sent, ) = payable(msg.sender).call{value: amount}("");
        require(sent, "Crowdsale: refund failed");
        emit Refunded(msg.sender, amount);
    }

    /// @notice Move claimed tokens.
    function transfer(address to, uint256 amount) external returns (bool) {
        require(to != address(0), "Crowdsale: transfer to the zero address");
        require(balanceOf[msg.sender] >= amount, "Crowdsale: transfer amount exceeds balance");
        balanceOf[msg.sender] -= amount;
        balanceOf[to] += amount;
        emit Transfer(msg.sender, to, amount);
        return true;
    }

    /// @notice Change the price before the sale opens.
    function setRate(uint256 newRate) external onlyOwner {
        require(block.timestamp < openingTime, "Crowdsale: already opened");
        require(newRate > 0, "Crowdsale: rate is 0");
        rate = newRate;
        emit RateChanged(newRate);
    }

    /// @notice Keep the sale open longer.
    function extendClosingTime(uint256 newClosingTime) external onlyOwner {
        require(!hasClosed(), "Crowdsale: already closed");
        require(newClosingTime > closingTime, "Crowdsale: new closing time is before current closing time");
        emit ClosingTimeExtended(closingTime, newClosingTime);
        closingTime = newClosingTime;
    }

    /// @notice Change where a successful sale sends its ether.
    function setWallet(address payable newWallet) external onlyOwner {
        require(newWallet != address(0), "Crowdsale: wallet is the zero address");
        require(!finalized, "Crowdsale: already finalized");
        wallet = newWallet;
        emit WalletChanged(newWallet);
    }

    function isOpen() public view returns (bool) {
        return block.timestamp >= openingTime && block.timestamp <= closingTime;
    }

    function hasClosed() public view returns (bool) {
        return block.timestamp > closingTime;
    }

    function goalReached() public view returns (bool) {
        return weiRaised >= goal;
    }
}
