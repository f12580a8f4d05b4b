// SPDX-License-Identifier: MIT
pragma solidity 0.8.19;

// A token on inherited bases, shaped like mainnet's WOLFCOIN: the deployed
// contract declares little, its bases hold most of the code.
library SafeMath {
    function add(uint256 a, uint256 b) internal pure returns (uint256) { uint256 c = a + b; require(c >= a); return c; }
}

interface IERC20 {
    function transfer(address to, uint256 value) external returns (bool);
}

abstract contract Context {
    function _msgSender() internal view virtual returns (address) { return msg.sender; }
}

contract Ownable is Context {
    address private _owner;

    modifier onlyOwner() { require(_owner == _msgSender(), "not the owner"); _; }

    constructor() { _owner = _msgSender(); }

    function owner() public view returns (address) { return _owner; }

    function transferOwnership(address newOwner) public virtual onlyOwner { _owner = newOwner; }
}

contract Pausable is Ownable {
    bool public paused;

    function pause() public onlyOwner { paused = true; }

    function unpause() public onlyOwner { paused = false; }
}

contract ERC20 is Context, IERC20 {
    mapping(address => uint256) internal _balances;
    uint256 public totalSupply;

    function transfer(address to, uint256 value) public virtual override returns (bool) {
        _transfer(_msgSender(), to, value);
        return true;
    }

    function _transfer(address from, address to, uint256 value) internal virtual {
        require(_balances[from] >= value, "balance");
        _balances[from] -= value;
        _balances[to] = SafeMath.add(_balances[to], value);
    }

    function _mint(address to, uint256 value) internal { totalSupply += value; _balances[to] += value; }

    function balanceOf(address account) public view returns (uint256) { return _balances[account]; }
}

contract Unrelated {
    uint256 public hits;
    function hit() public { hits += 1; }
}

contract WOLFCOIN is ERC20, Pausable {
    constructor() { _mint(msg.sender, 1000000); }

    function transfer(address to, uint256 value) public override returns (bool) {
        require(!paused, "paused");
        return super.transfer(to, value);
    }
}
