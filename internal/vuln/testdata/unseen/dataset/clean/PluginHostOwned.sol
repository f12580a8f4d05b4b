pragma solidity 0.8.19;

// Fixed twin of PluginHost: only the owner sets the plugin or runs it.
contract PluginHostOwned {
    address public owner;
    address public plugin;

    constructor() {
        owner = msg.sender;
    }

    function setPlugin(address p) external {
        require(msg.sender == owner, "owner");
        plugin = p;
    }

    function run(bytes calldata data) external {
        require(msg.sender == owner, "owner");
        (bool ok, ) = plugin.delegatecall(data);
        require(ok, "plugin");
    }
}
