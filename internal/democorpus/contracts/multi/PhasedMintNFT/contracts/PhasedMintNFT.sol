// SPDX-License-Identifier: MIT
pragma solidity ^0.8.9;

import "@openzeppelin/contracts/token/ERC721/extensions/ERC721Enumerable.sol";

/// @title PhasedMintNFT
/// @notice 120 tokens minted in two phases: an allowlist phase at a lower
/// price, then a public phase; at most four per wallet.
contract PhasedMintNFT is ERC721Enumerable {
    enum Phase {
        Closed,
        Allowlist,
        Public
    }

    uint256 public constant MAX_SUPPLY = 120;
    uint256 public constant MAX_PER_WALLET = 4;
    uint256 public constant ALLOWLIST_PRICE = 0.02 ether;
    uint256 public constant PUBLIC_PRICE = 0.04 ether;

    address public immutable owner;
    Phase public phase;
    mapping(address => bool) public allowlisted;
    mapping(address => uint256) public minted;

    modifier onlyOwner() {
        require(msg.sender == owner, "PhasedMintNFT: caller is not the owner");
        _;
    }

    constructor() ERC721("Phased Mint", "PHM") {
        owner = msg.sender;
    }

    /// @notice Put `accounts` on the allowlist.
    function setAllowlist(address[] calldata accounts) external onlyOwner {
        for (uint256 i = 0; i < accounts.length; i++) {
            allowlisted[accounts[i]] = true;
        }
    }

    /// @notice Move the sale to `next`.
    function setPhase(Phase next) external onlyOwner {
        phase = next;
    }

    /// @notice Mint `quantity` tokens at the current phase's price.
    function mint(uint256 quantity) external payable {
        require(phase != Phase.Closed, "PhasedMintNFT: minting is closed");
        if (phase == Phase.Allowlist) {
            require(allowlisted[msg.sender], "PhasedMintNFT: not on the allowlist");
        }
        uint256 price = phase == Phase.Allowlist ? ALLOWLIST_PRICE : PUBLIC_PRICE;
        require(quantity > 0 && msg.value == price * quantity, "PhasedMintNFT: wrong payment");
        require(minted[msg.sender] + quantity <= MAX_PER_WALLET, "PhasedMintNFT: wallet limit reached");
        require(totalSupply() + quantity <= MAX_SUPPLY, "PhasedMintNFT: sold out");
        minted[msg.sender] += quantity;
        for (uint256 i = 0; i < quantity; i++) {
            _mint(msg.sender, totalSupply() + 1);
        }
    }

    /// @notice Send the sale's proceeds to the owner.
    function withdraw() external onlyOwner {
        payable(owner).transfer(address(this).balance);
    }
}
