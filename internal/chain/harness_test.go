package chain

import (
	"bytes"
	"errors"
	"fmt"
	"math/big"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/tracing"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/solbehave/solbehave/internal/evmasm"
)

// deploy deploys runtime (behind a trivial constructor) and fails the test
// unless it worked.
func deploy(t testing.TB, h *Harness, runtime []byte, b Block) common.Address {
	t.Helper()
	res, err := h.Deploy(deployer, creationCode(nil, runtime), nil, b)
	if err != nil {
		t.Fatalf("deploy: %v", err)
	}
	if !res.Success {
		t.Fatalf("deploy failed: %v", res.Err)
	}
	if got := h.Code(res.ContractAddress); !bytes.Equal(got, runtime) {
		t.Fatalf("deployed code %x, want %x", got, runtime)
	}
	return res.ContractAddress
}

func mustCall(t *testing.T, h *Harness, to common.Address, data []byte, b Block) *Result {
	t.Helper()
	res, err := h.Call(alice, to, data, nil, b)
	if err != nil {
		t.Fatalf("call: %v", err)
	}
	return res
}

func TestDeployAndCall(t *testing.T) {
	h := New(Options{})
	addr := deploy(t, h, storeLogReturn(), block2020)
	arg := word(0x1234)

	res := mustCall(t, h, addr, arg, block2020)
	if !res.Success || res.Err != nil {
		t.Fatalf("call failed: %v", res.Err)
	}
	if !bytes.Equal(res.ReturnData, arg) {
		t.Errorf("return data %x, want %x", res.ReturnData, arg)
	}
	if res.GasUsed <= 21000 {
		t.Errorf("gas used %d, want > 21000", res.GasUsed)
	}
	if got := h.StorageAt(addr, common.Hash{}); got != common.BytesToHash(arg) {
		t.Errorf("slot 0 = %x, want %x", got, arg)
	}
	wantWrites := []StorageWrite{{Address: addr, Slot: common.Hash{}, Value: common.BytesToHash(arg)}}
	if !equalWrites(res.StorageWrites, wantWrites) {
		t.Errorf("storage writes %v, want %v", res.StorageWrites, wantWrites)
	}
	if len(res.Logs) != 1 {
		t.Fatalf("%d logs, want 1", len(res.Logs))
	}
	l := res.Logs[0]
	wantTopics := []common.Hash{topicA, common.BytesToHash(alice[:])}
	if l.Address != addr || len(l.Topics) != 2 || l.Topics[0] != wantTopics[0] || l.Topics[1] != wantTopics[1] || !bytes.Equal(l.Data, arg) {
		t.Errorf("log %+v, want address %s topics %v data %x", l, addr, wantTopics, arg)
	}
	if n := h.Nonce(alice); n != 1 {
		t.Errorf("caller nonce %d after one call, want 1", n)
	}
}

func equalWrites(a, b []StorageWrite) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestPlainTransferCostsIntrinsicGasAndTopsUp(t *testing.T) {
	h := New(Options{})
	value := big.NewInt(1e18)
	res, err := h.Call(alice, deployer, nil, value, block2020)
	if err != nil || !res.Success {
		t.Fatalf("transfer: %v %v", err, res)
	}
	if res.GasUsed != 21000 {
		t.Errorf("gas used %d, want 21000", res.GasUsed)
	}
	if got := h.Balance(deployer); got.Cmp(value) != 0 {
		t.Errorf("recipient balance %s, want %s", got, value)
	}
	if got := h.Balance(alice); got.Sign() != 0 {
		t.Errorf("sender balance %s after sending its top-up, want 0", got)
	}
}

func TestDeployWithConstructorArgsAndValue(t *testing.T) {
	h := New(Options{})
	arg := word(77)
	code := append(creationCode(storeCtorArg(), counter()), arg...)
	value := big.NewInt(5)
	res, err := h.Deploy(deployer, code, value, block2020)
	if err != nil || !res.Success {
		t.Fatalf("deploy: %v %+v", err, res)
	}
	if got := h.StorageAt(res.ContractAddress, common.Hash{}); got != common.BytesToHash(arg) {
		t.Errorf("constructor stored %x, want %x", got, arg)
	}
	if got := h.Balance(res.ContractAddress); got.Cmp(value) != 0 {
		t.Errorf("contract balance %s, want %s", got, value)
	}
	if len(res.StorageWrites) != 1 || res.StorageWrites[0].Address != res.ContractAddress {
		t.Errorf("constructor storage writes %v", res.StorageWrites)
	}
}

func TestCreateAddressFollowsNonce(t *testing.T) {
	h := New(Options{})
	h.SetNonce(deployer, 7)
	res, err := h.Deploy(deployer, creationCode(nil, counter()), nil, block2020)
	if err != nil || !res.Success {
		t.Fatalf("deploy: %v %+v", err, res)
	}
	if want := crypto.CreateAddress(deployer, 7); res.ContractAddress != want {
		t.Errorf("contract at %s, want %s", res.ContractAddress, want)
	}
	if !bytes.Equal(h.Code(res.ContractAddress), counter()) {
		t.Errorf("no code at the reported address")
	}
	if n := h.Nonce(deployer); n != 8 {
		t.Errorf("deployer nonce %d, want 8", n)
	}
}

func TestRevertReasons(t *testing.T) {
	cases := []struct {
		name    string
		payload []byte
		want    string
	}{
		{"error string", errorPayload("not enough balance"), "not enough balance"},
		{"panic overflow", panicPayload(0x11), "panic: 0x11"},
		{"custom error", append([]byte{0xde, 0xad, 0xbe, 0xef}, word(1)...), "custom error 0xdeadbeef"},
		{"empty", nil, ""},
	}
	h := New(Options{})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			addr := deploy(t, h, reverter(c.payload), block2020)
			res := mustCall(t, h, addr, nil, block2020)
			if res.Success || !errors.Is(res.Err, vm.ErrExecutionReverted) {
				t.Fatalf("success=%v err=%v, want a revert", res.Success, res.Err)
			}
			if res.RevertReason != c.want {
				t.Errorf("reason %q, want %q", res.RevertReason, c.want)
			}
			if !bytes.Equal(res.ReturnData, c.payload) {
				t.Errorf("revert data %x, want %x", res.ReturnData, c.payload)
			}
			if res.Logs != nil || res.StorageWrites != nil {
				t.Errorf("a revert reported logs %v / writes %v", res.Logs, res.StorageWrites)
			}
		})
	}
}

func TestDecodeRevert(t *testing.T) {
	cases := map[string]struct {
		in   []byte
		want string
	}{
		"empty":           {nil, ""},
		"short":           {[]byte{0x01, 0x02}, "custom error 0x0102"},
		"error":           {errorPayload("hi"), "hi"},
		"error truncated": {errorPayload("a long message that spans")[:70], "custom error 0x08c379a0"},
		"panic 1":         {panicPayload(1), "panic: 0x01"},
		"panic 0x32":      {panicPayload(0x32), "panic: 0x32"},
		"panic short":     {panicPayload(1)[:20], "custom error 0x4e487b71"},
		"selector only":   {[]byte{1, 2, 3, 4}, "custom error 0x01020304"},
	}
	for name, c := range cases {
		if got := DecodeRevert(c.in); got != c.want {
			t.Errorf("%s: DecodeRevert = %q, want %q", name, got, c.want)
		}
	}
}

func TestOutOfGas(t *testing.T) {
	h := New(Options{})
	addr := deploy(t, h, storeLogReturn(), block2020)
	res, err := h.Apply(Msg{From: alice, To: &addr, Data: word(1), Gas: 30_000, Block: block2020})
	if err != nil {
		t.Fatal(err)
	}
	if res.Success || !errors.Is(res.Err, vm.ErrOutOfGas) {
		t.Fatalf("success=%v err=%v, want out of gas", res.Success, res.Err)
	}
	if res.GasUsed != 30_000 {
		t.Errorf("gas used %d, want the whole 30000", res.GasUsed)
	}
	if h.StorageAt(addr, common.Hash{}) != (common.Hash{}) {
		t.Errorf("an out-of-gas call left a storage write")
	}
}

func TestGasBelowIntrinsicIsRejected(t *testing.T) {
	h := New(Options{})
	_, err := h.Apply(Msg{From: alice, To: &deployer, Gas: 20_000, Block: block2020})
	if !errors.Is(err, ErrRejected) || !errors.Is(err, core.ErrIntrinsicGas) {
		t.Fatalf("err %v, want ErrRejected wrapping core.ErrIntrinsicGas", err)
	}
	if _, err := h.Apply(Msg{From: alice, To: &deployer, Value: big.NewInt(-1), Block: block2020}); !errors.Is(err, ErrRejected) {
		t.Fatalf("negative value: err %v, want ErrRejected", err)
	}
}

func TestInfiniteLoopIsGasBounded(t *testing.T) {
	h := New(Options{})
	addr := deploy(t, h, spinner(), block2020)
	start := time.Now()
	res := mustCall(t, h, addr, nil, block2020) // DefaultGas
	if res.Success || !errors.Is(res.Err, vm.ErrOutOfGas) {
		t.Fatalf("success=%v err=%v, want out of gas", res.Success, res.Err)
	}
	if res.GasUsed != DefaultGas {
		t.Errorf("gas used %d, want %d", res.GasUsed, DefaultGas)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("a 30M-gas loop took %s", d)
	}
}

// TestGasBoundsCallsNotTheClock: a call's work is bounded by gas alone,
// never by how long the machine takes: a loop asking for more than MaxGas
// runs out of gas at MaxGas, and an 11 s stall of the process in the middle
// of it (a machine too loaded to schedule it) changes nothing.
func TestGasBoundsCallsNotTheClock(t *testing.T) {
	h := New(Options{})
	addr := deploy(t, h, spinner(), block2020)
	pid := os.Getpid()
	stall := exec.Command("sh", "-c", fmt.Sprintf("sleep 0.2; kill -STOP %d; sleep 11; kill -CONT %d", pid, pid))
	stall.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := stall.Start(); err != nil {
		t.Fatal(err)
	}
	defer stall.Wait()
	res, err := h.Apply(Msg{From: alice, To: &addr, Gas: 1 << 40, Block: block2020})
	if err != nil || res.Success || !errors.Is(res.Err, vm.ErrOutOfGas) || res.GasUsed != MaxGas {
		t.Fatalf("err %v result %+v, want out of gas after MaxGas", err, res)
	}
}

func TestTimeoutStopsHugeGasLoop(t *testing.T) {
	h := New(Options{Timeout: 50 * time.Millisecond})
	addr := deploy(t, h, spinner(), block2020)
	start := time.Now()
	res, err := h.Apply(Msg{From: alice, To: &addr, Gas: 1 << 50, Block: block2020})
	elapsed := time.Since(start)
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("err %v result %+v, want ErrTimeout", err, res)
	}
	if elapsed > 3*time.Second {
		t.Errorf("timed out only after %s", elapsed)
	}
	if n := h.Nonce(alice); n != 0 {
		t.Errorf("a timed-out call left the nonce at %d, want 0 (rolled back)", n)
	}
	// The harness is still usable, including for code that finishes in time.
	counterAddr := deploy(t, h, counter(), block2020)
	if res := mustCall(t, h, counterAddr, nil, block2020); !res.Success {
		t.Fatalf("call after a timeout failed: %v", res.Err)
	}
}

func TestForkRulesFollowTheBlock(t *testing.T) {
	h := New(Options{})
	push0 := common.HexToAddress("0x5f5f")
	h.SetCode(push0, []byte{byte(vm.PUSH0), byte(vm.PUSH0), byte(vm.RETURN)})

	res := mustCall(t, h, push0, nil, block2020)
	var invalid *vm.ErrInvalidOpCode
	if res.Success || !errors.As(res.Err, &invalid) {
		t.Errorf("PUSH0 at block %d: success=%v err=%v, want invalid opcode", block2020.Number, res.Success, res.Err)
	}
	if res := mustCall(t, h, push0, nil, block2023); !res.Success {
		t.Errorf("PUSH0 after Shanghai failed: %v", res.Err)
	}

	// SHL arrived with Constantinople: invalid in 2017, valid in 2019.
	shl := common.HexToAddress("0x1b1b")
	h.SetCode(shl, evmasm.New().Push(1).Push(1).Op(vm.SHL, vm.STOP).MustAssemble())
	if res := mustCall(t, h, shl, nil, block2017); res.Success {
		t.Errorf("SHL succeeded under Byzantium")
	}
	if res := mustCall(t, h, shl, nil, block2019); !res.Success {
		t.Errorf("SHL failed under Constantinople: %v", res.Err)
	}
}

func TestDefaultGasAboveOsakaCap(t *testing.T) {
	h := New(Options{})
	addr := deploy(t, h, counter(), blockOsaka)
	res := mustCall(t, h, addr, nil, blockOsaka) // 30M gas > the 2^24 cap of EIP-7825
	if !res.Success {
		t.Fatalf("call with DefaultGas after Osaka: %v", res.Err)
	}
}

func TestPrevRandaoAfterMerge(t *testing.T) {
	h := New(Options{})
	addr := common.HexToAddress("0x4444")
	h.SetCode(addr, wordReturner(vm.DIFFICULTY))

	pre := mustCall(t, h, addr, nil, block2020)
	if got := new(big.Int).SetBytes(pre.ReturnData); got.Cmp(preMergeDifficulty) != 0 {
		t.Errorf("DIFFICULTY before the merge = %s, want %s", got, preMergeDifficulty)
	}
	post := mustCall(t, h, addr, nil, block2023)
	if want := prevRandao(block2023.Number); common.BytesToHash(post.ReturnData) != want {
		t.Errorf("PREVRANDAO = %x, want %x", post.ReturnData, want)
	}
	later := mustCall(t, h, addr, nil, blockRecent)
	if bytes.Equal(later.ReturnData, post.ReturnData) {
		t.Errorf("PREVRANDAO is the same in two blocks")
	}
}

func TestForkIsolation(t *testing.T) {
	parent := New(Options{})
	addr := deploy(t, parent, storeLogReturn(), block2020)
	fork := parent.Fork()

	mustCall(t, fork, addr, word(5), block2020)
	if got := parent.StorageAt(addr, common.Hash{}); got != (common.Hash{}) {
		t.Errorf("fork's write visible in parent: %x", got)
	}
	mustCall(t, parent, addr, word(9), block2020)
	if got := fork.StorageAt(addr, common.Hash{}); got != common.BytesToHash(word(5)) {
		t.Errorf("fork slot = %x, want 5 (parent's write leaked?)", got)
	}
	if got := parent.StorageAt(addr, common.Hash{}); got != common.BytesToHash(word(9)) {
		t.Errorf("parent slot = %x, want 9", got)
	}
	if parent.Nonce(alice) != 1 || fork.Nonce(alice) != 1 {
		t.Errorf("nonces parent=%d fork=%d, want 1 each", parent.Nonce(alice), fork.Nonce(alice))
	}
}

func TestWithOptionsSharesState(t *testing.T) {
	h := New(Options{})
	addr := deploy(t, h, storeLogReturn(), block2020)
	covered := h.WithOptions(Options{Coverage: true})
	res := mustCall(t, covered, addr, word(3), block2020)
	if res.Coverage == nil || res.Coverage.Instructions() == 0 {
		t.Fatalf("no coverage with Coverage on")
	}
	if got := h.StorageAt(addr, common.Hash{}); got != common.BytesToHash(word(3)) {
		t.Errorf("write through WithOptions not seen by the original: %x", got)
	}
	if res := mustCall(t, h, addr, word(4), block2020); res.Coverage != nil {
		t.Errorf("coverage collected with Coverage off")
	}
}

func TestStaticCallLeavesNoTrace(t *testing.T) {
	h := New(Options{})
	addr := deploy(t, h, storeLogReturn(), block2020)
	res, err := h.StaticCall(alice, addr, word(8), block2020)
	if err != nil || !res.Success {
		t.Fatalf("static call: %v %+v", err, res)
	}
	if !bytes.Equal(res.ReturnData, word(8)) || len(res.StorageWrites) != 1 {
		t.Errorf("static call result %x writes %v", res.ReturnData, res.StorageWrites)
	}
	if got := h.StorageAt(addr, common.Hash{}); got != (common.Hash{}) {
		t.Errorf("static call changed storage to %x", got)
	}
	if n := h.Nonce(alice); n != 0 {
		t.Errorf("static call bumped the nonce to %d", n)
	}
}

func TestRevertedInnerFrameIsNotReported(t *testing.T) {
	h := New(Options{})
	inner := deploy(t, h, logAndRevert(), block2020)
	outer := deploy(t, h, callThenWrite(inner), block2020)
	res := mustCall(t, h, outer, nil, block2020)
	if !res.Success {
		t.Fatalf("outer call failed: %v", res.Err)
	}
	want := []StorageWrite{{Address: outer, Slot: common.BigToHash(big.NewInt(1)), Value: common.BigToHash(big.NewInt(2))}}
	if !equalWrites(res.StorageWrites, want) {
		t.Errorf("writes %v, want only the outer one %v", res.StorageWrites, want)
	}
	if len(res.Logs) != 1 || res.Logs[0].Address != outer {
		t.Errorf("logs %+v, want only the outer log", res.Logs)
	}
	if h.StorageAt(inner, common.Hash{}) != (common.Hash{}) {
		t.Errorf("reverted inner write persisted")
	}
}

func TestStorageWritesFoldInFirstWriteOrder(t *testing.T) {
	h := New(Options{})
	addr := deploy(t, h, multiWrite(), block2020)
	res := mustCall(t, h, addr, nil, block2020)
	want := []StorageWrite{
		{Address: addr, Slot: common.BigToHash(big.NewInt(5)), Value: common.BigToHash(big.NewInt(7))},
		{Address: addr, Slot: common.BigToHash(big.NewInt(3)), Value: common.BigToHash(big.NewInt(2))},
	}
	if !equalWrites(res.StorageWrites, want) {
		t.Errorf("writes %v, want %v", res.StorageWrites, want)
	}
	// Writing the same values again changes nothing, so reports nothing.
	if res := mustCall(t, h, addr, nil, block2020); len(res.StorageWrites) != 1 {
		// slot5 goes 7 -> 1 -> 7: changed twice, net value 7, still reported.
		t.Errorf("second run writes %v, want slot 5 only", res.StorageWrites)
	}
}

func TestCoverageRecordsPCsAndBothBranchOutcomes(t *testing.T) {
	h := New(Options{Coverage: true})
	runtime := brancher()
	addr := deploy(t, h, runtime, block2020)
	codeHash := crypto.Keccak256Hash(runtime)

	notTaken := mustCall(t, h, addr, word(0), block2020).Coverage
	taken := mustCall(t, h, addr, word(1), block2020).Coverage
	if !notTaken.HasBranch(Branch{codeHash, brancherJumpiPC, false}) || notTaken.BranchOutcomes() != 1 {
		t.Errorf("input 0: branches %v, want only JUMPI not taken", notTaken.Branches())
	}
	if !taken.HasBranch(Branch{codeHash, brancherJumpiPC, true}) || taken.BranchOutcomes() != 1 {
		t.Errorf("input 1: branches %v, want only JUMPI taken", taken.Branches())
	}
	jumpdestPC := uint64(8) // after JUMPI (6) and STOP (7)
	if !taken.HasPC(CodePC{codeHash, jumpdestPC}) {
		t.Errorf("taken branch did not reach the JUMPDEST: %v", taken.PCs())
	}
	if notTaken.HasPC(CodePC{codeHash, jumpdestPC}) {
		t.Errorf("untaken branch reached the JUMPDEST")
	}

	var total Coverage
	total.Merge(notTaken)
	newPCs, newBranches := total.Merge(taken)
	if newPCs != 2 || newBranches != 1 { // JUMPDEST and its STOP; the taken outcome
		t.Errorf("merge found %d new PCs and %d new branches, want 2 and 1", newPCs, newBranches)
	}
	if want := []Branch{{codeHash, brancherJumpiPC, false}, {codeHash, brancherJumpiPC, true}}; !slices.Equal(total.Branches(), want) {
		t.Errorf("merged branches %v, want both outcomes %v", total.Branches(), want)
	}
	if p, b := total.Merge(taken); p != 0 || b != 0 {
		t.Errorf("merging again found %d/%d new", p, b)
	}
}

func TestCoverageKeepsBytecodesApart(t *testing.T) {
	h := New(Options{Coverage: true})
	runtime := counter()
	creation := creationCode(nil, runtime)
	res, err := h.Deploy(deployer, creation, nil, block2020)
	if err != nil || !res.Success {
		t.Fatalf("deploy: %v %+v", err, res)
	}
	initHash, runtimeHash := crypto.Keccak256Hash(creation), crypto.Keccak256Hash(runtime)
	for _, pc := range res.Coverage.PCs() {
		if pc.Code != initHash {
			t.Fatalf("deployment coverage keyed by %x, want the init code hash %x", pc.Code, initHash)
		}
	}
	call := mustCall(t, h, res.ContractAddress, nil, block2020)
	if call.Coverage.Instructions() != 7 { // every instruction of counter
		t.Errorf("%d PCs covered, want 7: %v", call.Coverage.Instructions(), call.Coverage.PCs())
	}
	for _, pc := range call.Coverage.PCs() {
		if pc.Code != runtimeHash {
			t.Errorf("call coverage keyed by %x, want the runtime hash", pc.Code)
		}
	}
}

func TestExtraHooksObserve(t *testing.T) {
	h := New(Options{})
	addr := deploy(t, h, storeLogReturn(), block2020)

	var opcodes, v2opcodes, storage, logs, txStarts int
	var status uint64 = 99
	hooks := &tracing.Hooks{
		OnOpcode:        func(uint64, byte, uint64, uint64, tracing.OpContext, []byte, int, error) { opcodes++ },
		OnStorageChange: func(common.Address, common.Hash, common.Hash, common.Hash) { storage++ },
		OnLog:           func(*types.Log) { logs++ },
		OnTxStart:       func(*tracing.VMContext, *types.Transaction, common.Address) { txStarts++ },
		OnTxEnd:         func(r *types.Receipt, _ error) { status = r.Status },
	}
	res := mustCall(t, h.WithOptions(Options{Hooks: hooks}), addr, word(2), block2020)
	if !res.Success || opcodes == 0 || storage != 1 || logs != 1 || txStarts != 1 || status != types.ReceiptStatusSuccessful {
		t.Errorf("hooks saw opcodes=%d storage=%d logs=%d txStarts=%d status=%d", opcodes, storage, logs, txStarts, status)
	}

	// Alongside coverage, the caller's hook (V1 or V2) and coverage both run.
	before := opcodes
	res = mustCall(t, h.WithOptions(Options{Hooks: hooks, Coverage: true}), addr, word(3), block2020)
	if opcodes-before != res.Coverage.Instructions() {
		t.Errorf("hook saw %d opcodes, coverage %d PCs (straight-line code: want equal)", opcodes-before, res.Coverage.Instructions())
	}
	v2 := &tracing.Hooks{OnOpcodeV2: func(uint64, byte, tracing.Gas, tracing.Gas, tracing.OpContext, []byte, int, error) { v2opcodes++ }}
	res = mustCall(t, h.WithOptions(Options{Hooks: v2, Coverage: true}), addr, word(4), block2020)
	if v2opcodes == 0 || res.Coverage.Instructions() != v2opcodes {
		t.Errorf("V2 hook saw %d opcodes, coverage %d PCs", v2opcodes, res.Coverage.Instructions())
	}
}

func TestPanickingHookBecomesError(t *testing.T) {
	h := New(Options{})
	addr := deploy(t, h, storeLogReturn(), block2020)
	boom := &tracing.Hooks{OnOpcode: func(_ uint64, op byte, _, _ uint64, _ tracing.OpContext, _ []byte, _ int, _ error) {
		if vm.OpCode(op) == vm.SSTORE {
			panic("hook exploded")
		}
	}}
	for _, coverage := range []bool{false, true} {
		res, err := h.WithOptions(Options{Hooks: boom, Coverage: coverage}).Call(alice, addr, word(6), nil, block2020)
		if !errors.Is(err, ErrPanic) || !strings.Contains(err.Error(), "hook exploded") || res != nil {
			t.Fatalf("coverage=%v: err %v res %v, want ErrPanic", coverage, err, res)
		}
	}
	if h.Nonce(alice) != 0 || h.StorageAt(addr, common.Hash{}) != (common.Hash{}) {
		t.Errorf("panicked call was not rolled back: nonce %d slot %x", h.Nonce(alice), h.StorageAt(addr, common.Hash{}))
	}
	if res := mustCall(t, h, addr, word(6), block2020); !res.Success {
		t.Errorf("harness unusable after a panic: %v", res.Err)
	}
}

func TestForksRunConcurrently(t *testing.T) {
	base := New(Options{})
	addr := deploy(t, base, counter(), block2020)
	done := make(chan common.Hash)
	for range 4 {
		f := base.Fork()
		go func() {
			for range 50 {
				if _, err := f.Call(alice, addr, nil, nil, block2020); err != nil {
					t.Error(err)
				}
			}
			done <- f.StorageAt(addr, common.Hash{})
		}()
	}
	for range 4 {
		if got := <-done; got != common.BigToHash(big.NewInt(50)) {
			t.Errorf("fork counter %x, want 50", got)
		}
	}
	if got := base.StorageAt(addr, common.Hash{}); got != (common.Hash{}) {
		t.Errorf("base counter %x, want 0", got)
	}
}
