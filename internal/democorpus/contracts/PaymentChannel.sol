// SPDX-License-Identifier: MIT
pragma solidity 0.8.19;

/// @title PaymentChannel
/// @notice One-way payment channels. A sender opens a channel with a deposit and an expiry and pays
/// the recipient off-chain by signing ever larger amounts. The recipient closes the channel with the
/// latest signed amount and receives it; the rest goes back to the sender. If the recipient never
/// closes, the sender takes the whole deposit back after expiry.
contract PaymentChannel {
    struct Channel {
        address payable sender;
        address payable recipient;
        uint256 deposit;
        uint256 expiry;
        bool closed;
    }

    address public owner;
    uint256 public minDuration = 1 hours;
    uint256 public channelCount;
    mapping(uint256 => Channel) public channels;

    event ChannelOpened(uint256 indexed channelId, address indexed sender, address indexed recipient, uint256 deposit, uint256 expiry);
    event ChannelToppedUp(uint256 indexed channelId, uint256 deposit);
    event ChannelExtended(uint256 indexed channelId, uint256 expiry);
    event ChannelClosed(uint256 indexed channelId, uint256 paid, uint256 refunded);
    event ChannelTimedOut(uint256 indexed channelId, uint256 refunded);
    event MinDurationChanged(uint256 duration);
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    modifier onlyOwner() {
        require(msg.sender == owner, "PaymentChannel: caller is not the owner");
        _;
    }

    modifier onlyOpen(uint256 channelId) {
        require(channels[channelId].deposit > 0, "PaymentChannel: unknown channel");
        require(!channels[channelId].closed, "PaymentChannel: channel closed");
        _;
    }

    constructor() {
        owner = msg.sender;
    }

    /// @notice Open a channel to `recipient` holding the ether sent, until `expiry`.
    function open(address payable recipient, uint256 expiry) external payable returns (uint256 channelId) {
        require(msg.value > 0, "PaymentChannel: no deposit");
        require(recipient != address(0) && recipient != msg.sender, "PaymentChannel: bad recipient");
        require(expiry >= block.timestamp + minDuration, "PaymentChannel: expiry too soon");
        channelId = channelCount;
        channels[channelId] = Channel(payable(msg.sender), recipient, msg.value, expiry, false);
        channelCount += 1;
        emit ChannelOpened(channelId, msg.sender, recipient, msg.value, expiry);
    }

    /// @notice Add the ether sent to an open channel's deposit.
    function topUp(uint256 channelId) external payable onlyOpen(channelId) {
        Channel storage ch = channels[channelId];
        require(msg.sender == ch.sender, "PaymentChannel: caller is not the sender");
        require(msg.value > 0, "PaymentChannel: no deposit");
        ch.deposit += msg.value;
        emit ChannelToppedUp(channelId, ch.deposit);
    }

    /// @notice Move an open channel's expiry later.
    function extend(uint256 channelId, uint256 newExpiry) external onlyOpen(channelId) {
        Channel storage ch = channels[channelId];
        require(msg.sender == ch.sender, "PaymentChannel: caller is not the sender");
        require(newExpiry > ch.expiry, "PaymentChannel: expiry not later");
        ch.expiry = newExpiry;
        emit ChannelExtended(channelId, newExpiry);
    }

    /// @notice Close a channel with an amount the sender signed; the recipient gets it.
    function close(uint256 channelId, uint256 amount, bytes calldata signature) external onlyOpen(channelId) {
        Channel storage ch = channels[channelId];
        require(msg.sender == ch.recipient, "PaymentChannel: caller is not the recipient");
        require(amount <= ch.deposit, "PaymentChannel: amount exceeds deposit");
        require(recoverSigner(paymentHash(channelId, amount), signature) == ch.sender, "PaymentChannel: bad signature");
        ch.closed = true;
        uint256 refund = ch.deposit - amount;
        ch.recipient.transfer(amount);
        if (refund > 0) {
            ch.sender.transfer(refund);
        }
        emit ChannelClosed(channelId, amount, refund);
    }

    /// @notice After expiry, give the whole deposit back to the sender.
    function claimTimeout(uint256 channelId) external onlyOpen(channelId) {
        Channel storage ch = channels[channelId];
        require(msg.sender == ch.sender, "PaymentChannel: caller is not the sender");
        require(block.timestamp >= ch.expiry, "PaymentChannel: not expired");
        ch.closed = true;
        ch.sender.transfer(ch.deposit);
        emit ChannelTimedOut(channelId, ch.deposit);
    }

    /// @notice Change the shortest channel lifetime accepted.
    function setMinDuration(uint256 duration) external onlyOwner {
        minDuration = duration;
        emit MinDurationChanged(duration);
    }

    /// @notice Hand the contract to a new owner.
    function transferOwnership(address newOwner) external onlyOwner {
        require(newOwner != address(0), "PaymentChannel: new owner is the zero address");
        emit OwnershipTransferred(owner, newOwner);
        owner = newOwner;
    }

    /// @notice The message a sender signs to pay `amount` on `channelId`, prefixed as eth_sign does.
    function paymentHash(uint256 channelId, uint256 amount) public view returns (bytes32) {
        bytes32 message = keccak256(abi.encodePacked(address(this), channelId, amount));
        return keccak256(abi.encodePacked("\x19Ethereum Signed Message:\n32", message));
    }

    function recoverSigner(bytes32 digest, bytes memory signature) internal pure returns (address) {
        require(signature.length == 65, "PaymentChannel: bad signature length");
        bytes32 r;
        bytes32 s;
        uint8 v;
        assembly {
            r := mload(add(signature, 32))
            s := mload(add(signature, 64))
            v := byte(0, mload(add(signature, 96)))
        }
        if (v < 27) {
            v += 27;
        }
        return ecrecover(digest, v, r, s);
    }
}
