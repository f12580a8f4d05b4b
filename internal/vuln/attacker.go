package vuln

import (
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/vm"
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
	a := newAsm()
	t := target.Bytes()
	a.push(t...).op(vm.CALLER, vm.EQ).pushLabel("recv").op(vm.JUMPI)

	// Controller path: [F, start, R] where the re-entry payload is the R
	// bytes of calldata from start.
	a.pushN(0).op(vm.CALLDATALOAD)                     // [F]
	a.op(vm.DUP1).pushN(32).op(vm.ADD)                 // [F, start=F+32]
	a.op(vm.DUP1, vm.CALLDATASIZE, vm.SUB)             // [F, start, R=size-start]
	a.op(vm.DUP1).pushLabel("haveR").op(vm.JUMPI)      // R = 0: re-enter with the forwarded bytes
	a.op(vm.POP, vm.POP).pushN(32).op(vm.DUP2)         // [F, 32, F]
	a.label("haveR")                                   // [F, start, R]
	a.op(vm.DUP1).pushN(attackerLenSlot).op(vm.SSTORE) // remember R
	a.pushN(uint64(reentries)).pushN(attackerCounterSlot).op(vm.SSTORE)
	a.pushN(0)                                                                               // [F, start, R, i]
	a.label("store").op(vm.DUP2, vm.DUP2, vm.LT, vm.ISZERO).pushLabel("stored").op(vm.JUMPI) // i >= R: done
	a.op(vm.DUP1, vm.DUP4, vm.ADD, vm.CALLDATALOAD)                                          // [F, start, R, i, word]
	a.op(vm.DUP2).pushN(32).op(vm.SWAP1, vm.DIV).pushN(1).op(vm.ADD)                         // [.., word, i/32+1]
	a.op(vm.SSTORE).pushN(32).op(vm.ADD).pushLabel("store").op(vm.JUMP)
	a.label("stored").op(vm.POP, vm.POP, vm.POP) // [F]
	a.op(vm.DUP1).pushN(32).pushN(0).op(vm.CALLDATACOPY)
	a.pushN(0).pushN(0).op(vm.DUP3).pushN(0).op(vm.CALLVALUE).push(t...).op(vm.GAS, vm.CALL)
	a.op(vm.ISZERO).pushLabel("fail").op(vm.JUMPI, vm.STOP)
	a.label("fail").pushN(0).op(vm.DUP1, vm.REVERT)

	// Receiving path: re-enter once per armed count, with enough gas only.
	a.label("recv")
	a.op(vm.GAS).pushN(attackerMinGas).op(vm.GT).pushLabel("done").op(vm.JUMPI) // 10000 > gas: just accept
	a.pushN(attackerCounterSlot).op(vm.SLOAD, vm.DUP1, vm.ISZERO).pushLabel("done").op(vm.JUMPI)
	a.pushN(1).op(vm.SWAP1, vm.SUB).pushN(attackerCounterSlot).op(vm.SSTORE)
	a.pushN(0)
	a.label("load").pushN(attackerLenSlot).op(vm.SLOAD, vm.DUP2, vm.LT, vm.ISZERO).pushLabel("call").op(vm.JUMPI)
	a.op(vm.DUP1).pushN(32).op(vm.SWAP1, vm.DIV).pushN(1).op(vm.ADD, vm.SLOAD) // [i, word]
	a.op(vm.DUP2, vm.MSTORE).pushN(32).op(vm.ADD).pushLabel("load").op(vm.JUMP)
	a.label("call").op(vm.POP)
	a.pushN(0).pushN(0).pushN(attackerLenSlot).op(vm.SLOAD).pushN(0).pushN(0).push(t...).op(vm.GAS, vm.CALL, vm.POP)
	a.label("done").op(vm.STOP)
	code, err := a.assemble()
	if err != nil { // the program above is fixed; a failure is a bug here
		panic(err)
	}
	return code
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
