pragma solidity 0.7.6;

// Reentrancy in an escrow release (DASP 1): the payee is paid with call{value:} before the escrow is closed.
contract EscrowV7 {
    mapping(address => uint256) public escrowed;
    mapping(address => bool) public released;

    function lock() external payable {
        require(!released[msg.sender], "closed");
        escrowed[msg.sender] += msg.value;
    }

    function release() external {
        require(!released[msg.sender], "released");
        uint256 amount = escrowed[msg.sender];
        (bool ok, ) = msg.sender.call{value: amount}(""); // LABEL: reentrancy
        require(ok, "send");
        released[msg.sender] = true;
        escrowed[msg.sender] = 0;
    }
}
