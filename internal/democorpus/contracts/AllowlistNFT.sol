// SPDX-License-Identifier: MIT
pragma solidity 0.8.19;

/// @title AllowlistNFT
/// @notice A capped collection of non-fungible tokens. Addresses on the owner's allowlist mint
/// first at a discount; once the owner opens the public mint anyone can mint at the full price.
/// Every wallet may mint a limited number of tokens. Minimal ERC-721 ownership and transfers.
contract AllowlistNFT {
    string public name = "Harbor Pals";
    string public symbol = "HPAL";
    string public baseURI = "ipfs://bafybeihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku/";

    uint256 public constant MAX_SUPPLY = 250;
    uint256 public constant MAX_PER_WALLET = 5;

    address public owner;
    uint256 public price = 0.05 ether;
    uint256 public allowlistPrice = 0.03 ether;
    bool public publicMintOpen;
    uint256 public totalSupply;

    mapping(address => bool) public allowlist;
    mapping(address => uint256) public mintedBy;
    mapping(uint256 => address) private owners;
    mapping(address => uint256) private balances;
    mapping(uint256 => address) private tokenApprovals;

    event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);
    event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId);
    event AllowlistUpdated(address indexed account, bool allowed);
    event PublicMintToggled(bool open);
    event PriceChanged(uint256 price, uint256 allowlistPrice);
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    modifier onlyOwner() {
        require(msg.sender == owner, "AllowlistNFT: caller is not the owner");
        _;
    }

    constructor() {
        owner = msg.sender;
    }

    /// @notice Add or remove addresses from the allowlist.
    function setAllowlist(address[] calldata accounts, bool allowed) external onlyOwner {
        for (uint256 i = 0; i < accounts.length; i++) {
            allowlist[accounts[i]] = allowed;
            emit AllowlistUpdated(accounts[i], allowed);
        }
    }

    /// @notice Open or close the public mint.
    function setPublicMint(bool open) external onlyOwner {
        publicMintOpen = open;
        emit PublicMintToggled(open);
    }

    /// @notice Change the mint prices.
    function setPrice(uint256 newPrice, uint256 newAllowlistPrice) external onlyOwner {
        price = newPrice;
        allowlistPrice = newAllowlistPrice;
        emit PriceChanged(newPrice, newAllowlistPrice);
    }

    /// @notice Change where token metadata lives.
    function setBaseURI(string calldata newBaseURI) external onlyOwner {
        baseURI = newBaseURI;
    }

    /// @notice Send the mint proceeds to the owner.
    function withdraw() external onlyOwner {
        uint256 amount = address(this).balance;
        require(amount > 0, "AllowlistNFT: nothing to withdraw");
        (bool sent, ) = payable(owner).call{value: amount}("");
        require(sent, "AllowlistNFT: withdraw failed");
    }

    /// @notice Hand the collection to a new owner.
    function transferOwnership(address newOwner) external onlyOwner {
        require(newOwner != address(0), "AllowlistNFT: new owner is the zero address");
        emit OwnershipTransferred(owner, newOwner);
        owner = newOwner;
    }

    /// @notice Mint `quantity` tokens at the allowlist price.
    function allowlistMint(uint256 quantity) external payable {
        require(allowlist[msg.sender], "AllowlistNFT: not on the allowlist");
        require(msg.value == allowlistPrice * quantity, "AllowlistNFT: wrong payment");
        mintTo(msg.sender, quantity);
    }

    /// @notice Mint `quantity` tokens at the public price.
    function mint(uint256 quantity) external payable {
        require(publicMintOpen, "AllowlistNFT: public mint is closed");
        require(msg.value == price * quantity, "AllowlistNFT: wrong payment");
        mintTo(msg.sender, quantity);
    }

    function mintTo(address to, uint256 quantity) private {
        require(quantity > 0, "AllowlistNFT: quantity is 0");
        require(totalSupply + quantity <= MAX_SUPPLY, "AllowlistNFT: exceeds max supply");
        require(mintedBy[to] + quantity <= MAX_PER_WALLET, "AllowlistNFT: exceeds wallet limit");
        mintedBy[to] += quantity;
        balances[to] += quantity;
        for (uint256 i = 0; i < quantity; i++) {
            uint256 tokenId = totalSupply + 1;
            totalSupply = tokenId;
            owners[tokenId] = to;
            emit Transfer(address(0), to, tokenId);
        }
    }

    function balanceOf(address account) external view returns (uint256) {
        require(account != address(0), "AllowlistNFT: balance query for the zero address");
        return balances[account];
    }

    function ownerOf(uint256 tokenId) public view returns (address) {
        address tokenOwner = owners[tokenId];
        require(tokenOwner != address(0), "AllowlistNFT: owner query for nonexistent token");
        return tokenOwner;
    }

    function getApproved(uint256 tokenId) external view returns (address) {
        ownerOf(tokenId);
        return tokenApprovals[tokenId];
    }

    function tokenURI(uint256 tokenId) external view returns (string memory) {
        ownerOf(tokenId);
        return string(abi.encodePacked(baseURI, toString(tokenId), ".json"));
    }

    /// @notice Let `to` transfer `tokenId` on the owner's behalf.
    function approve(address to, uint256 tokenId) external {
        address tokenOwner = ownerOf(tokenId);
        require(to != tokenOwner, "AllowlistNFT: approval to current owner");
        require(msg.sender == tokenOwner, "AllowlistNFT: caller is not the token owner");
        tokenApprovals[tokenId] = to;
        emit Approval(tokenOwner, to, tokenId);
    }

    /// @notice Move `tokenId` from `from` to `to`.
    function transferFrom(address from, address to, uint256 tokenId) external {
        address tokenOwner = ownerOf(tokenId);
        require(tokenOwner == from, "AllowlistNFT: transfer from incorrect owner");
        require(to != address(0), "AllowlistNFT: transfer to the zero address");
        require(
            msg.sender == tokenOwner || msg.sender == tokenApprovals[tokenId],
            "AllowlistNFT: caller is not token owner or approved"
        );
        delete tokenApprovals[tokenId];
        balances[from] -= 1;
        balances[to] += 1;
        owners[tokenId] = to;
        emit Transfer(from, to, tokenId);
    }

    function toString(uint256 value) internal pure returns (string memory) {
        if (value == 0) {
            return "0";
        }
        uint256 digits;
        for (uint256 temp = value; temp != 0; temp /= 10) {
            digits++;
        }
        bytes memory buffer = new bytes(digits);
        while (value != 0) {
            digits -= 1;
            buffer[digits] = bytes1(uint8(48 + (value % 10)));
            value /= 10;
        }
        return string(buffer);
    }
}
