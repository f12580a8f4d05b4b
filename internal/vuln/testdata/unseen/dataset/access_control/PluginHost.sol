pragma solidity 0.8.19;

// Delegatecall to a target anyone may set (DASP 2; Parity multisig, 2017): setPlugin is unprotected and run()
// delegates to the plugin with the caller's data.
contract PluginHost {
    address public owner;
    address public plugin;

    constructor() {
        owner = msg.sender;
    }

    function setPlugin(address p) external {
        plugin = p;
    }

    function run(bytes calldata data) external {
        (bool ok, ) = plugin.delegatecall(data); // LABEL: access_control
        require(ok, "plugin");
    }
}
