pragma solidity 0.6.12;

// Delegatecall of transaction input (DASP 2; Parity multisig, 2017): the fallback delegates any call data to the
// library, initWallet included, so anyone re-initialises the owner.
contract WalletLib {
    address public owner;

    function initWallet(address o) public {
        owner = o;
    }
}

contract WalletLibUser {
    address public owner;
    address public lib;

    constructor() public {
        owner = msg.sender;
        lib = address(new WalletLib());
    }

    fallback() external payable {
        (bool ok, ) = lib.delegatecall(msg.data); // LABEL: access_control
        require(ok);
    }
}
