pragma solidity 0.8.19;

interface IERC721Receiver {
    function onERC721Received(address operator, address from, uint256 tokenId, bytes calldata data) external returns (bytes4);
}

// ERC-721 safeMint hook reentrancy (DASP 1; HypeBears, 2022): the per-wallet limit is checked, the receiver
// hook runs, and the count is written after it, so the hook mints past the limit; each mint refunds overpayment.
contract MintPass {
    mapping(uint256 => address) public ownerOf;
    mapping(address => uint256) public minted;
    uint256 public nextId;
    uint256 public constant PRICE = 0.01 ether;

    function mint() external payable {
        require(minted[msg.sender] < 1, "limit");
        require(msg.value >= PRICE, "price");
        uint256 id = nextId;
        ownerOf[id] = msg.sender;
        nextId = id + 1;
        if (msg.sender.code.length > 0) {
            require(IERC721Receiver(msg.sender).onERC721Received(msg.sender, address(0), id, "") == IERC721Receiver.onERC721Received.selector, "receiver"); // LABEL: reentrancy
        }
        (bool ok, ) = msg.sender.call{value: msg.value - PRICE}("");
        require(ok, "refund");
        minted[msg.sender] = minted[msg.sender] + 1;
    }
}
