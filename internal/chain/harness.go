package chain

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"
	"runtime/debug"
	"slices"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/rawdb"
	"github.com/ethereum/go-ethereum/core/state"
	"github.com/ethereum/go-ethereum/core/tracing"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/triedb"
	"github.com/holiman/uint256"

	"github.com/solbehave/solbehave/internal/walltime"
)

const (
	// DefaultGas is the gas limit of a message that names none.
	DefaultGas uint64 = 30_000_000
	// MaxGas bounds every message's gas limit, so a call's work is bounded
	// deterministically (no mainnet block has allowed more): a recorded
	// transaction claiming more gas runs with MaxGas.
	MaxGas uint64 = 1 << 28
	// BlockGasLimit is the block gas limit every call runs under (raised to
	// the call's own gas when that is larger).
	BlockGasLimit uint64 = 30_000_000
	// MainnetMergeBlock is the first proof-of-stake block of mainnet: from it on
	// BlockContext.Random (PREVRANDAO) is set.
	MainnetMergeBlock uint64 = 15_537_394
)

var (
	// ErrTimeout: the call ran past Options.Timeout and was cancelled; its
	// effects were rolled back. The harness returns it inside a
	// *walltime.Error: a unit that meets it fails as a timeout, never a result.
	ErrTimeout = errors.New("chain: call exceeded its time limit")
	// ErrPanic: the EVM or a hook panicked; the call's effects were rolled back.
	ErrPanic = errors.New("chain: panic during execution")
	// ErrRejected: the message could never be included in a block (gas below
	// the intrinsic cost, init code too large, value above 256 bits...).
	ErrRejected = errors.New("chain: message rejected")

	// Coinbase is the fixed block beneficiary of every call.
	Coinbase = common.HexToAddress("0x000000000000000000000000000000000000c0de")

	// preMergeDifficulty is what DIFFICULTY returns before the merge.
	preMergeDifficulty = big.NewInt(1 << 50)
)

// Block names the block a message runs in: its number and timestamp choose
// the fork rules.
type Block struct{ Number, Time uint64 }

// Msg is one transaction to run.
type Msg struct {
	From  common.Address
	To    *common.Address // nil: contract creation (Data = creation code + encoded constructor args)
	Data  []byte
	Value *big.Int // nil = 0
	Gas   uint64   // 0 = DefaultGas
	Block Block
}

// Log is an event emitted by a call that succeeded.
type Log struct {
	Address common.Address
	Topics  []common.Hash
	Data    []byte
}

// StorageWrite is the value a call left in a storage slot it changed.
type StorageWrite struct {
	Address     common.Address
	Slot, Value common.Hash
}

// Result is what one message did.
type Result struct {
	Success      bool
	GasUsed      uint64 // after refunds, intrinsic gas included
	ReturnData   []byte // return data, or revert data when reverted
	RevertReason string // DecodeRevert of the revert data; "" unless reverted
	Err          error  // the VM error (vm.ErrExecutionReverted, vm.ErrOutOfGas, *vm.ErrInvalidOpCode...)
	Logs         []Log  // only when Success; none from reverted inner frames
	// StorageWrites holds one entry per (address, slot) whose value some SSTORE
	// changed (not counting reverted inner frames), in first-write order, with
	// the value the call left there. Only when Success.
	StorageWrites []StorageWrite
	// ContractAddress is the CREATE address of a creation message (set even
	// when the creation failed, as a receipt does).
	ContractAddress common.Address
	Coverage        *Coverage // only with Options.Coverage
	// StateKept: the call left every account as it found it, the sender's
	// nonce aside (which no code can read): the same call again on this
	// state does the same.
	StateKept bool
}

// Options configure a Harness.
type Options struct {
	Config   *params.ChainConfig // nil: mainnet
	Coverage bool                // collect Result.Coverage
	Hooks    *tracing.Hooks      // extra observer, may be nil
	// Timeout is a wall-clock limit per call; 0: none (gas bounds every call,
	// see MaxGas). How long a call takes depends on the machine, so a call
	// that runs out of time is an error (ErrTimeout), never a Result.
	Timeout time.Duration
}

// Harness is an in-memory chain state plus the machinery to run messages on
// it. It is not safe for concurrent use.
type Harness struct {
	opts    Options
	config  *params.ChainConfig
	timeout time.Duration

	inner  *state.StateDB
	rec    *recordingState   // what the EVM sees: inner, hooked when Hooks watch state
	tracer *tracing.Hooks    // nil unless something observes execution
	cov    *coverageRecorder // nil without Options.Coverage
	dog    watchdog          // enforces the timeout
	// toppedUp: the current call's sender was given the balance for its
	// value, a change no revert undoes.
	toppedUp bool

	// The EVM is kept while consecutive calls share a block, so its jump
	// table, precompiles and jumpdest analyses are reused.
	evm    *vm.EVM
	evmKey evmKey
	rules  params.Rules

	// Reused per call to avoid allocations.
	msg   core.Message
	to    common.Address
	value uint256.Int
	zero  uint256.Int
	gp    core.GasPool
	tx    *types.Transaction // synthesized for OnTxStart/OnTxEnd hooks only
}

type evmKey struct{ number, time, gasLimit uint64 }

// New returns a harness over an empty in-memory state.
func New(opts Options) *Harness {
	inner := NewMemoryState()
	// A funded coinbase exists, as on a real chain; an empty one would be
	// created by every fee payment and deleted again by EIP-158.
	inner.SetBalance(Coinbase, uint256.NewInt(1), tracing.BalanceChangeUnspecified)
	return newHarness(opts, inner)
}

// NewMemoryState is an empty in-memory go-ethereum state, what a harness
// starts from (and code that drives go-ethereum directly, as the benchmarks'
// bare floor, to compare like with like).
func NewMemoryState() *state.StateDB {
	db := state.NewDatabase(triedb.NewDatabase(rawdb.NewMemoryDatabase(), nil), nil)
	s, err := state.New(types.EmptyRootHash, db)
	if err != nil { // an empty in-memory trie cannot fail to open
		panic(fmt.Sprintf("chain: opening in-memory state: %v", err))
	}
	return s
}

func newHarness(opts Options, inner *state.StateDB) *Harness {
	h := &Harness{opts: opts, config: opts.Config, timeout: opts.Timeout, inner: inner}
	if h.config == nil {
		h.config = params.MainnetChainConfig
	}
	if opts.Coverage {
		h.cov = newCoverageRecorder()
	}
	h.tracer = combineHooks(opts.Hooks, h.cov)
	h.rec = newRecordingState(inner, opts.Hooks)
	h.msg = core.Message{GasPrice: &h.zero, GasFeeCap: &h.zero, GasTipCap: &h.zero, Value: &h.value}
	h.msg.SkipNonceCheck().SkipEOACheck().SkipGasLimitCapCheck().SkipExecutionGasCapCheck()
	return h
}

// Fork returns a harness over an independent copy of the state, with the
// same options.
func (h *Harness) Fork() *Harness {
	return newHarness(h.opts, h.inner.Copy())
}

// WithOptions returns a harness over the same state (writes through either
// are seen by both) with other options, e.g. coverage on.
func (h *Harness) WithOptions(opts Options) *Harness {
	return newHarness(opts, h.inner)
}

// Release hands the harness's cached EVM (its 32 KiB stack arena) back to
// go-ethereum's pool. Call it on a fork you are done with: a fuzzer that
// forks every few calls otherwise allocates a fresh arena per fork. The
// harness stays usable; its next call builds a new EVM.
func (h *Harness) Release() { h.dropEVM(true) }

// Deploy runs a contract creation: code is the creation code with the encoded
// constructor arguments appended. The contract lands at
// crypto.CreateAddress(from, Nonce(from)).
func (h *Harness) Deploy(from common.Address, code []byte, value *big.Int, b Block) (*Result, error) {
	return h.Apply(Msg{From: from, Data: code, Value: value, Block: b})
}

// Call runs a message call with DefaultGas.
func (h *Harness) Call(from, to common.Address, data []byte, value *big.Int, b Block) (*Result, error) {
	return h.Apply(Msg{From: from, To: &to, Data: data, Value: value, Block: b})
}

// StaticCall runs a call as eth_call does and then discards every effect it
// had on the state (nonce bump included).
func (h *Harness) StaticCall(from, to common.Address, data []byte, b Block) (*Result, error) {
	return h.apply(Msg{From: from, To: &to, Data: data, Block: b}, true)
}

// Apply runs one message as a transaction. The error is only for harness
// faults (ErrTimeout, ErrPanic, ErrRejected); a reverting or failing EVM
// execution is a Result with Success false and Err set.
func (h *Harness) Apply(m Msg) (*Result, error) {
	return h.apply(m, false)
}

func (h *Harness) apply(m Msg, discard bool) (*Result, error) {
	if err := h.loadMessage(m); err != nil {
		return nil, err
	}
	evm := h.evmFor(m.Block, h.msg.GasLimit)
	var created common.Address
	if m.To == nil {
		created = crypto.CreateAddress(m.From, h.msg.Nonce)
	}
	h.gp = *core.NewGasPool(evm.Context.GasLimit)
	h.rec.begin(m.From)
	h.cov.begin()

	snap := h.inner.Snapshot()
	exec, err := h.execute(evm)
	if err != nil || discard {
		h.inner.RevertToSnapshot(snap)
	}
	h.rec.Finalise(h.rules)
	if err != nil {
		return nil, err
	}
	r := h.result(exec, m.To == nil, created)
	r.StateKept = !h.toppedUp && h.rec.kept()
	return r, nil
}

// loadMessage fills the reused core.Message and funds the sender for the value.
func (h *Harness) loadMessage(m Msg) error {
	h.value.Clear()
	if m.Value != nil {
		if m.Value.Sign() < 0 {
			return fmt.Errorf("%w: negative value %s", ErrRejected, m.Value)
		}
		if h.value.SetFromBig(m.Value) {
			return fmt.Errorf("%w: value %s exceeds 256 bits", ErrRejected, m.Value)
		}
	}
	h.toppedUp = h.topUp(m.From, &h.value)

	h.msg.From = m.From
	h.msg.To = nil
	if m.To != nil {
		h.to = *m.To
		h.msg.To = &h.to
	}
	h.msg.Data = m.Data
	h.msg.GasLimit = min(m.Gas, MaxGas)
	if h.msg.GasLimit == 0 {
		h.msg.GasLimit = DefaultGas
	}
	h.msg.Nonce = h.inner.GetNonce(m.From)
	return nil
}

// topUp raises a's balance to v if it is lower, so that any value is
// payable, and tells whether it did.
func (h *Harness) topUp(a common.Address, v *uint256.Int) bool {
	if v.IsZero() || h.inner.GetBalance(a).Cmp(v) >= 0 {
		return false
	}
	h.inner.SetBalance(a, v.Clone(), tracing.BalanceChangeUnspecified)
	return true
}

// evmFor returns an EVM for the block, reusing the last one when the block
// context is unchanged.
func (h *Harness) evmFor(b Block, gas uint64) *vm.EVM {
	key := evmKey{number: b.Number, time: b.Time, gasLimit: max(BlockGasLimit, gas)}
	if h.evm != nil && h.evmKey == key {
		return h.evm
	}
	h.dropEVM(true)
	ctx := BlockContext(h.config, Block{Number: key.number, Time: key.time}, key.gasLimit)
	h.evm = vm.NewEVM(ctx, h.rec, h.config, vm.Config{Tracer: h.tracer, NoBaseFee: true})
	h.evm.SetJumpDestCache(jumpDestAnalyses)
	h.evmKey = key
	h.rules = h.config.Rules(ctx.BlockNumber, ctx.Random != nil, ctx.Time)
	return h.evm
}

// dropEVM forgets the cached EVM; release returns its stack arena to the pool
// (not after a panic, when the arena's state is unknown).
func (h *Harness) dropEVM(release bool) {
	if h.evm != nil && release {
		h.evm.Release()
	}
	h.evm = nil
}

// BlockContext is the context every message of block b runs in under cfg,
// with gasLimit as the block's gas limit: coinbase, DIFFICULTY or PREVRANDAO
// and BLOCKHASH as the harness sets them. Code that drives go-ethereum
// directly (the benchmarks' bare floor) uses it to run the same code paths.
func BlockContext(cfg *params.ChainConfig, b Block, gasLimit uint64) vm.BlockContext {
	ctx := vm.BlockContext{
		CanTransfer: core.CanTransfer,
		Transfer:    core.Transfer,
		GetHash:     blockHash,
		Coinbase:    Coinbase,
		GasLimit:    gasLimit,
		BlockNumber: new(big.Int).SetUint64(b.Number),
		Time:        b.Time,
		BaseFee:     new(big.Int),
		BlobBaseFee: new(big.Int),
	}
	if merged(cfg, b.Number) {
		random := prevRandao(b.Number)
		ctx.Random = &random
		ctx.Difficulty = new(big.Int)
	} else {
		ctx.Difficulty = new(big.Int).Set(preMergeDifficulty)
	}
	return ctx
}

// merged reports whether block number runs under proof of stake.
func merged(cfg *params.ChainConfig, number uint64) bool {
	switch {
	case cfg.MergeNetsplitBlock != nil:
		return cfg.MergeNetsplitBlock.Uint64() <= number
	case cfg.TerminalTotalDifficulty != nil && cfg.TerminalTotalDifficulty.Sign() == 0:
		return true // merged from genesis (dev and test configs)
	default:
		return number >= MainnetMergeBlock
	}
}

// blockHash is BLOCKHASH: deterministic, distinct per number.
func blockHash(n uint64) common.Hash {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], n)
	return crypto.Keccak256Hash(b[:])
}

// prevRandao is PREVRANDAO: deterministic, distinct from the block hash.
func prevRandao(n uint64) common.Hash {
	var b [9]byte
	binary.BigEndian.PutUint64(b[1:], n)
	b[0] = 0x52 // domain tag
	return crypto.Keccak256Hash(b[:])
}

// execute runs the loaded message (under the watchdog when a timeout is
// set), turning a panic or a timeout into an error (the caller rolls the
// state back).
func (h *Harness) execute(evm *vm.EVM) (res *core.ExecutionResult, err error) {
	if h.timeout > 0 {
		h.dog.arm(evm, h.timeout)
	}
	defer func() {
		fired := h.timeout > 0 && h.dog.disarm()
		if r := recover(); r != nil {
			res, err = nil, fmt.Errorf("%w: %v\n%s", ErrPanic, r, debug.Stack())
			h.dropEVM(false)
		} else if fired {
			res, err = nil, &walltime.Error{Limit: h.timeout, Err: ErrTimeout}
			h.dropEVM(true) // a cancelled EVM stays cancelled
		}
	}()
	h.txStart(evm)
	res, err = core.ApplyMessage(evm, &h.msg, &h.gp)
	if err != nil {
		err = fmt.Errorf("%w: %w", ErrRejected, err)
	}
	h.txEnd(res, err)
	return res, err
}

// txStart and txEnd give caller hooks the transaction events a block
// processor would, with an unsigned transaction standing for the message.
func (h *Harness) txStart(evm *vm.EVM) {
	hooks := h.opts.Hooks
	if hooks == nil || (hooks.OnTxStart == nil && hooks.OnTxEnd == nil) {
		return
	}
	var to *common.Address
	if h.msg.To != nil {
		a := *h.msg.To
		to = &a
	}
	h.tx = types.NewTx(&types.LegacyTx{
		Nonce: h.msg.Nonce, GasPrice: new(big.Int), Gas: h.msg.GasLimit,
		To: to, Value: h.value.ToBig(), Data: h.msg.Data,
	})
	if hooks.OnTxStart != nil {
		hooks.OnTxStart(evm.GetVMContext(), h.tx, h.msg.From)
	}
}

func (h *Harness) txEnd(res *core.ExecutionResult, err error) {
	hooks := h.opts.Hooks
	if hooks == nil || hooks.OnTxEnd == nil {
		return
	}
	receipt := &types.Receipt{Type: types.LegacyTxType, TxHash: h.tx.Hash(), Logs: slices.Clone(h.rec.logs)}
	if res != nil {
		receipt.GasUsed, receipt.CumulativeGasUsed = res.UsedGas, res.UsedGas
		if !res.Failed() {
			receipt.Status = types.ReceiptStatusSuccessful
		}
	}
	if h.msg.To == nil {
		receipt.ContractAddress = crypto.CreateAddress(h.msg.From, h.msg.Nonce)
	}
	hooks.OnTxEnd(receipt, err)
}

func (h *Harness) result(x *core.ExecutionResult, create bool, created common.Address) *Result {
	r := &Result{Success: x.Err == nil, GasUsed: x.UsedGas, ReturnData: x.ReturnData, Err: x.Err}
	if errors.Is(x.Err, vm.ErrExecutionReverted) {
		r.RevertReason = DecodeRevert(x.ReturnData)
	}
	if r.Success {
		r.Logs = h.rec.resultLogs()
		r.StorageWrites = h.rec.resultWrites()
	}
	if create {
		r.ContractAddress = created
	}
	if h.cov != nil {
		r.Coverage = h.cov.collect()
	}
	return r
}

// Balance returns a's balance in wei.
func (h *Harness) Balance(a common.Address) *big.Int { return h.inner.GetBalance(a).ToBig() }

// SetBalance sets a's balance; negative values count as 0 and values above
// 256 bits as the largest one.
func (h *Harness) SetBalance(a common.Address, v *big.Int) {
	h.inner.SetBalance(a, clampU256(v), tracing.BalanceChangeUnspecified)
}

// Nonce returns a's nonce.
func (h *Harness) Nonce(a common.Address) uint64 { return h.inner.GetNonce(a) }

// SetNonce sets a's nonce (a following Deploy from a lands on
// crypto.CreateAddress(a, n)).
func (h *Harness) SetNonce(a common.Address, n uint64) {
	h.inner.SetNonce(a, n, tracing.NonceChangeUnspecified)
}

// Code returns a copy of a's code.
func (h *Harness) Code(a common.Address) []byte { return bytes.Clone(h.inner.GetCode(a)) }

// SetCode installs code at a as is (no constructor runs).
func (h *Harness) SetCode(a common.Address, code []byte) {
	h.inner.SetCode(a, bytes.Clone(code), tracing.CodeChangeUnspecified)
}

// StorageAt returns the value of a storage slot.
func (h *Harness) StorageAt(a common.Address, slot common.Hash) common.Hash {
	return h.inner.GetState(a, slot)
}

func clampU256(v *big.Int) *uint256.Int {
	switch {
	case v == nil || v.Sign() <= 0:
		return new(uint256.Int)
	case v.BitLen() > 256:
		return new(uint256.Int).SetAllOne()
	default:
		return uint256.MustFromBig(v)
	}
}

// CreationError is a contract creation that left no contract: the
// constructor failed (Reason: its error and revert reason) or returned no
// code.
type CreationError struct{ Reason string }

func (e *CreationError) Error() string { return "deploy failed: " + e.Reason }

// Created is the error of a creation's result: nil when it left code at its
// address, else a *CreationError saying why not.
func (h *Harness) Created(res *Result) error {
	if !res.Success {
		msg := "constructor reverted"
		if res.Err != nil {
			msg = res.Err.Error()
		}
		if res.RevertReason != "" {
			msg += ": " + res.RevertReason
		}
		return &CreationError{Reason: msg}
	}
	if len(h.Code(res.ContractAddress)) == 0 {
		return &CreationError{Reason: "constructor left no code"}
	}
	return nil
}
