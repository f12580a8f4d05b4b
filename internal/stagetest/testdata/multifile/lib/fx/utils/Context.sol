// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

/// @dev Who is calling, as OpenZeppelin's Context says it.
abstract contract Context {
    function _msgSender() internal view virtual returns (address) {
        return msg.sender;
    }
}
