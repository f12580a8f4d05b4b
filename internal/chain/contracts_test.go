package chain

import (
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/vm"
)

var (
	deployer = common.HexToAddress("0x1000000000000000000000000000000000000001")
	alice    = common.HexToAddress("0x2000000000000000000000000000000000000002")
	topicA   = common.HexToHash("0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")

	block2017   = Block{Number: 4_500_000, Time: 1_509_000_000}  // Byzantium
	block2019   = Block{Number: 7_300_000, Time: 1_551_500_000}  // Constantinople
	block2020   = Block{Number: 10_000_000, Time: 1_588_598_533} // Istanbul
	block2023   = Block{Number: 17_100_000, Time: 1_682_000_000} // Shanghai
	blockRecent = Block{Number: 22_000_000, Time: 1_741_000_000} // Cancun
	blockOsaka  = Block{Number: 24_000_000, Time: 1_766_000_000} // Osaka: 2^24 tx gas cap
)

// storeLogReturn: slot0 = calldata[0:32]; LOG2(topicA, caller) with the word
// as data; returns the word.
func storeLogReturn() []byte {
	return newAsm().
		push(0).op(vm.CALLDATALOAD).
		op(vm.DUP1).push(0).op(vm.SSTORE).
		push(0).op(vm.MSTORE).
		op(vm.CALLER).pushBytes(topicA[:]).push(32).push(0).op(vm.LOG2).
		push(32).push(0).op(vm.RETURN).
		bytes()
}

// counter: slot0 += 1.
func counter() []byte {
	return newAsm().push(0).op(vm.SLOAD).push(1).op(vm.ADD).push(0).op(vm.SSTORE, vm.STOP).bytes()
}

// brancher: JUMPI on calldata[0:32] != 0.
func brancher() []byte {
	return newAsm().
		push(0).op(vm.CALLDATALOAD).pushLabel("yes").op(vm.JUMPI).
		op(vm.STOP).
		jumpdest("yes").op(vm.STOP).
		bytes()
}

// brancherJumpiPC is the pc of brancher's JUMPI (PUSH1 0, CALLDATALOAD, PUSH2 x).
const brancherJumpiPC = 6

// reverter reverts with exactly payload.
func reverter(payload []byte) []byte {
	return newAsm().
		push(uint64(len(payload))).pushLabel("data").push(0).op(vm.CODECOPY).
		push(uint64(len(payload))).push(0).op(vm.REVERT).
		mark("data").raw(payload).
		bytes()
}

// spinner loops for ever.
func spinner() []byte {
	return newAsm().jumpdest("top").pushLabel("top").op(vm.JUMP).bytes()
}

// wordReturner returns the value one opcode pushes (DIFFICULTY, NUMBER...).
func wordReturner(op vm.OpCode) []byte {
	return newAsm().op(op).push(0).op(vm.MSTORE).push(32).push(0).op(vm.RETURN).bytes()
}

// storeCtorArg is a constructor that stores its last 32 bytes of code (the
// ABI-encoded uint256 argument) in slot 0.
func storeCtorArg() []byte {
	return newAsm().
		push(32).push(32).op(vm.CODESIZE, vm.SUB).push(0).op(vm.CODECOPY).
		push(0).op(vm.MLOAD).push(0).op(vm.SSTORE).
		bytes()
}

// logAndRevert writes slot0 = 1, logs, then reverts.
func logAndRevert() []byte {
	return newAsm().push(1).push(0).op(vm.SSTORE).push(0).push(0).op(vm.LOG0).push(0).push(0).op(vm.REVERT).bytes()
}

// callThenWrite calls target (which may revert), then writes slot1 = 2 and
// logs once.
func callThenWrite(target common.Address) []byte {
	return newAsm().
		push(0).push(0).push(0).push(0).push(0).pushBytes(target[:]).op(vm.GAS, vm.CALL, vm.POP).
		push(2).push(1).op(vm.SSTORE).
		push(0).push(0).op(vm.LOG0).
		op(vm.STOP).
		bytes()
}

// multiWrite: slot5 = 1, slot3 = 2, slot5 = 7, slot3 = 2 (no change).
func multiWrite() []byte {
	return newAsm().
		push(1).push(5).op(vm.SSTORE).
		push(2).push(3).op(vm.SSTORE).
		push(7).push(5).op(vm.SSTORE).
		push(2).push(3).op(vm.SSTORE).
		op(vm.STOP).bytes()
}

func word(v int64) []byte { return common.BigToHash(big.NewInt(v)).Bytes() }

// errorPayload ABI-encodes Error(msg).
func errorPayload(msg string) []byte {
	out := append([]byte{}, errorSelector[:]...)
	out = append(out, word(32)...)
	out = append(out, word(int64(len(msg)))...)
	padded := make([]byte, (len(msg)+31)/32*32)
	copy(padded, msg)
	return append(out, padded...)
}

func panicPayload(code int64) []byte {
	return append(append([]byte{}, panicSelector[:]...), word(code)...)
}
