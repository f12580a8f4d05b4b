package chain

import (
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/vm"

	"github.com/solbehave/solbehave/internal/evmasm"
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
	return evmasm.New().
		Push(0).Op(vm.CALLDATALOAD).
		Op(vm.DUP1).Push(0).Op(vm.SSTORE).
		Push(0).Op(vm.MSTORE).
		Op(vm.CALLER).PushBytes(topicA[:]...).Push(32).Push(0).Op(vm.LOG2).
		Push(32).Push(0).Op(vm.RETURN).
		MustAssemble()
}

// counter: slot0 += 1.
func counter() []byte {
	return evmasm.New().Push(0).Op(vm.SLOAD).Push(1).Op(vm.ADD).Push(0).Op(vm.SSTORE, vm.STOP).MustAssemble()
}

// brancher: JUMPI on calldata[0:32] != 0.
func brancher() []byte {
	return evmasm.New().
		Push(0).Op(vm.CALLDATALOAD).PushLabel("yes").Op(vm.JUMPI).
		Op(vm.STOP).
		Label("yes").Op(vm.STOP).
		MustAssemble()
}

// brancherJumpiPC is the pc of brancher's JUMPI (PUSH1 0, CALLDATALOAD, PUSH2 x).
const brancherJumpiPC = 6

// reverter reverts with exactly payload.
func reverter(payload []byte) []byte {
	return evmasm.New().
		Push(uint64(len(payload))).PushLabel("data").Push(0).Op(vm.CODECOPY).
		Push(uint64(len(payload))).Push(0).Op(vm.REVERT).
		Mark("data").Raw(payload).
		MustAssemble()
}

// spinner loops for ever.
func spinner() []byte {
	return evmasm.New().Label("top").PushLabel("top").Op(vm.JUMP).MustAssemble()
}

// wordReturner returns the value one opcode pushes (DIFFICULTY, NUMBER...).
func wordReturner(op vm.OpCode) []byte {
	return evmasm.New().Op(op).Push(0).Op(vm.MSTORE).Push(32).Push(0).Op(vm.RETURN).MustAssemble()
}

// storeCtorArg is a constructor that stores its last 32 bytes of code (the
// ABI-encoded uint256 argument) in slot 0.
func storeCtorArg() []byte {
	return evmasm.New().
		Push(32).Push(32).Op(vm.CODESIZE, vm.SUB).Push(0).Op(vm.CODECOPY).
		Push(0).Op(vm.MLOAD).Push(0).Op(vm.SSTORE).
		MustAssemble()
}

// logAndRevert writes slot0 = 1, logs, then reverts.
func logAndRevert() []byte {
	return evmasm.New().Push(1).Push(0).Op(vm.SSTORE).Push(0).Push(0).Op(vm.LOG0).Push(0).Push(0).Op(vm.REVERT).MustAssemble()
}

// callThenWrite calls target (which may revert), then writes slot1 = 2 and
// logs once.
func callThenWrite(target common.Address) []byte {
	return evmasm.New().
		Push(0).Push(0).Push(0).Push(0).Push(0).PushBytes(target[:]...).Op(vm.GAS, vm.CALL, vm.POP).
		Push(2).Push(1).Op(vm.SSTORE).
		Push(0).Push(0).Op(vm.LOG0).
		Op(vm.STOP).
		MustAssemble()
}

// multiWrite: slot5 = 1, slot3 = 2, slot5 = 7, slot3 = 2 (no change).
func multiWrite() []byte {
	return evmasm.New().
		Push(1).Push(5).Op(vm.SSTORE).
		Push(2).Push(3).Op(vm.SSTORE).
		Push(7).Push(5).Op(vm.SSTORE).
		Push(2).Push(3).Op(vm.SSTORE).
		Op(vm.STOP).MustAssemble()
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

// creationCode wraps runtime code in init code that runs ctor (may be nil)
// and then returns runtime. Constructor arguments may be appended to it.
func creationCode(ctor, runtime []byte) []byte {
	return evmasm.New().Raw(ctor).
		Push(uint64(len(runtime))).Op(vm.DUP1).PushLabel("runtime").Push(0).Op(vm.CODECOPY).
		Push(0).Op(vm.RETURN).
		Mark("runtime").Raw(runtime).
		MustAssemble()
}
