pragma solidity ^0.4.24;

/**
 * @title SafeMath
 * @dev Math operations with safety checks that throw on error.
 */
library SafeMath {
    function mul(uint256 a, uint256 b) internal pure returns (uint256) {
        if (a == 0) {
            return 0;
        }
        uint256 c = a * b;
        require(c / a == b);
        return c;
    }

    function div(uint256 a, uint256 b) internal pure returns (uint256) {
        require(b > 0);
        return a / b;
    }

    function sub(uint256 a, uint256 b) internal pure returns (uint256) {
        require(b <= a);
        return a - b;
    }

    function add(uint256 a, uint256 b) internal pure returns (uint256) {
        uint256 c = a + b;
        require(c >= a);
        return c;
    }
}

/**
 * @title ERC20 interface
 * @dev see https://github.com/ethereum/EIPs/issues/20
 */
contract ERC20Interface {
    function totalSupply() public view returns (uint256);
    function balanceOf(address _owner) public view returns (uint256 balance);
    function transfer(address _to, uint256 _amount) public returns (bool success);
    function transferFrom(address _from, address _to, uint256 _amount) public returns (bool success);
    function approve(address _spender, uint256 _amount) public returns (bool success);
    function allowance(address _owner, address _spender) public view returns (uint256 remaining);

    event Transfer(address indexed _from, address indexed _to, uint256 _value);
    event Approval(address indexed _owner, address indexed _spender, uint256 _value);
}

/**
 * @title GiftToken
 * @dev An ERC20 token whose owner runs the initial sale: while the sale is on, anyone but the
 * owner can send ether and receive tokens from the owner's balance at a fixed price. The ether
 * collected stays in the contract until the owner withdraws it.
 */
contract GiftToken is ERC20Interface {
    using SafeMath for uint256;

    string public constant name = "Gift Token";
    string public constant symbol = "GFT";
    uint8 public constant decimals = 5;

    // Smallest purchase accepted, in wei.
    uint256 public constant MIN_PURCHASE = 10 finney;

    uint256 public _totalSupply;
    // Token units sold for one ether.
    uint256 public tokensPerEth = 4300 * 10**5;
    bool public selling;
    address public owner;

    mapping(address => uint256) balances;
    mapping(address => mapping(address => uint256)) allowed;

    event SaleEnabled();
    event SaleDisabled();
    event TokensBought(address indexed buyer, uint256 weiAmount, uint256 tokens);
    event BuyPriceChanged(uint256 tokensPerEth);
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    modifier onlyOwner() {
        require(msg.sender == owner);
        _;
    }

    modifier onlyNotOwner() {
        require(msg.sender != owner);
        _;
    }

    modifier whenSelling() {
        require(selling);
        _;
    }

    constructor(uint256 initialSupply) public {
        owner = msg.sender;
        _totalSupply = initialSupply;
        balances[owner] = initialSupply;
        emit Transfer(address(0), owner, initialSupply);
    }

    /// @notice Sending ether to the contract buys tokens.
    function() public payable {
        buy();
    }

    /// @notice Buy tokens at the current price while the sale is on.
    function buy() public payable onlyNotOwner whenSelling {
        require(msg.value >= MIN_PURCHASE);
        uint256 amount = msg.value.mul(tokensPerEth).div(1 ether);
        require(balances[owner] >= amount);
        balances[owner] = balances[owner].sub(amount);
        balances[msg.sender] = balances[msg.sender].add(amount);
        emit Transfer(owner, msg.sender, amount);
        emit TokensBought(msg.sender, msg.value, amount);
    }

    /// @notice Open the sale.
    function enableSale() public onlyOwner {
        selling = true;
        emit SaleEnabled();
    }

    /// @notice Close the sale.
    function disableSale() public onlyOwner {
        selling = false;
        emit SaleDisabled();
    }

    /// @notice Change how many token units one ether buys.
    function setBuyPrice(uint256 newTokensPerEth) public onlyOwner {
        require(newTokensPerEth > 0);
        tokensPerEth = newTokensPerEth;
        emit BuyPriceChanged(newTokensPerEth);
    }

    /// @notice Send the ether collected by the sale to the owner.
    function withdrawEth() public onlyOwner {
        owner.transfer(address(this).balance);
    }

    /// @notice Hand the contract to a new owner.
    function transferOwnership(address newOwner) public onlyOwner {
        require(newOwner != address(0));
        emit OwnershipTransferred(owner, newOwner);
        owner = newOwner;
    }

    function totalSupply() public view returns (uint256) {
        return _totalSupply;
    }

    function balanceOf(address _owner) public view returns (uint256 balance) {
        return balances[_owner];
    }

    /// @notice Transfer `_amount` tokens to `_to`; returns false, without reverting, when refused.
    function transfer(address _to, uint256 _amount) public returns (bool success) {
        if (balances[msg.sender] >= _amount && _amount > 0 && balances[_to] + _amount > balances[_to]) {
            balances[msg.sender] = balances[msg.sender].sub(_amount);
            balances[_to] = balances[_to].add(_amount);
            emit Transfer(msg.sender, _to, _amount);
            return true;
        }
        return false;
    }

    /// @notice Move `_amount` tokens from `_from` to `_to` within the caller's allowance.
    function transferFrom(address _from, address _to, uint256 _amount) public returns (bool success) {
        if (balances[_from] >= _amount && allowed[_from][msg.sender] >= _amount && _amount > 0
            && balances[_to] + _amount > balances[_to]) {
            balances[_from] = balances[_from].sub(_amount);
            allowed[_from][msg.sender] = allowed[_from][msg.sender].sub(_amount);
            balances[_to] = balances[_to].add(_amount);
            emit Transfer(_from, _to, _amount);
            return true;
        }
        return false;
    }

    /// @notice Let `_spender` move up to `_amount` of the caller's tokens.
    function approve(address _spender, uint256 _amount) public returns (bool success) {
        allowed[msg.sender][_spender] = _amount;
        emit Approval(msg.sender, _spender, _amount);
        return true;
    }

    function allowance(address _owner, address _spender) public view returns (uint256 remaining) {
        return allowed[_owner][_spender];
    }
}
