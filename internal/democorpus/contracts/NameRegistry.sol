// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title NameRegistry
/// @notice The implementation behind the demo corpus's ERC1967Proxy: names
/// registered for a fee, transferred and released. It runs in the proxy's
/// storage, so it is set up by initialize, not by a constructor.
contract NameRegistry {
    bool private initialized;
    address public owner;
    uint256 public fee;
    mapping(bytes32 => address) public holderOf;
    mapping(address => uint256) public namesHeld;

    event Registered(string name, address indexed holder);
    event Transferred(string name, address indexed from, address indexed to);
    event Released(string name, address indexed holder);

    modifier onlyOwner() {
        require(msg.sender == owner, "NameRegistry: caller is not the owner");
        _;
    }

    /// @notice Set the owner and the registration fee, once.
    function initialize(address owner_, uint256 fee_) external {
        require(!initialized, "NameRegistry: already initialized");
        initialized = true;
        owner = owner_;
        fee = fee_;
    }

    /// @notice Register `name` to the caller for the fee.
    function register(string calldata name) external payable {
        bytes32 key = keccak256(bytes(name));
        require(bytes(name).length >= 3, "NameRegistry: name too short");
        require(holderOf[key] == address(0), "NameRegistry: name taken");
        require(msg.value == fee, "NameRegistry: wrong fee");
        holderOf[key] = msg.sender;
        namesHeld[msg.sender] += 1;
        emit Registered(name, msg.sender);
    }

    /// @notice Give `name` to `to`.
    function transferName(string calldata name, address to) external {
        bytes32 key = keccak256(bytes(name));
        require(holderOf[key] == msg.sender, "NameRegistry: not the holder");
        require(to != address(0), "NameRegistry: zero address");
        holderOf[key] = to;
        namesHeld[msg.sender] -= 1;
        namesHeld[to] += 1;
        emit Transferred(name, msg.sender, to);
    }

    /// @notice Give `name` up.
    function release(string calldata name) external {
        bytes32 key = keccak256(bytes(name));
        require(holderOf[key] == msg.sender, "NameRegistry: not the holder");
        delete holderOf[key];
        namesHeld[msg.sender] -= 1;
        emit Released(name, msg.sender);
    }

    /// @notice Change the registration fee.
    function setFee(uint256 fee_) external onlyOwner {
        fee = fee_;
    }

    /// @notice Send the collected fees to the owner.
    function withdraw() external onlyOwner {
        payable(owner).transfer(address(this).balance);
    }
}
