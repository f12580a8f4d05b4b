package bench

import (
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/state"
	"github.com/ethereum/go-ethereum/core/tracing"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"
	"github.com/holiman/uint256"

	"github.com/solbehave/solbehave/internal/chain"
	"github.com/solbehave/solbehave/internal/deploy"
)

// bare is the floor: the same messages through core.ApplyMessage on a plain
// StateDB, with no tracer, no wrapper, no watchdog and nothing recorded. It
// runs in internal/chain's block context, so the statuses must match.
type bare struct {
	config    *params.ChainConfig
	post      *state.StateDB // right after the deployment; copied per run
	jumpDests jumpDests      // go-ethereum's own analysis cache, kept across blocks as a node keeps it
}

// jumpDests is the plainest vm.JumpDestCache: without one every new EVM (one
// per block) would redo each contract's JUMPDEST analysis, and the floor
// would be slower than a node.
type jumpDests map[common.Hash]vm.BitVec

func (j jumpDests) Load(h common.Hash) (vm.BitVec, bool) { v, ok := j[h]; return v, ok }
func (j jumpDests) Store(h common.Hash, v vm.BitVec)     { j[h] = v }

// newBare deploys the deployment's creation (same code, arguments, deployer,
// nonce, block and value) on a fresh plain state. Libraries are installed as
// the code they have on the harness.
func newBare(rec *deploy.Record, d *deploy.Deployment) (*bare, error) {
	st := chain.NewMemoryState()
	b := &bare{config: params.MainnetChainConfig, post: st, jumpDests: jumpDests{}}
	st.SetBalance(chain.Coinbase, uint256.NewInt(1), tracing.BalanceChangeUnspecified)
	for _, addr := range d.Libraries {
		st.SetCode(addr, d.Chain.Code(addr), tracing.CodeChangeUnspecified)
	}
	if rec.Creation != nil {
		st.SetNonce(d.Deployer, rec.Creation.Nonce, tracing.NonceChangeUnspecified)
	}
	code, err := d.Contract.CreationCode(d.Libraries)
	if err != nil {
		return nil, err
	}
	creation := message{from: d.Deployer, data: append(code, d.Args...), value: rec.CreationValue(), gas: deploy.DeployGas, block: d.Block}
	created := crypto.CreateAddress(d.Deployer, st.GetNonce(d.Deployer))
	statuses, _ := b.run(st, []message{creation})
	if statuses[0] != statusSuccess || created != d.Address || len(st.GetCode(created)) == 0 {
		return nil, fmt.Errorf("bare deployment: %s at %s (harness: %s)", statuses[0], created.Hex(), d.Address.Hex())
	}
	return b, nil
}

// message is one transaction as every engine sends it.
type message struct {
	from  common.Address
	to    *common.Address
	data  []byte
	value *big.Int
	gas   uint64
	block chain.Block
}

// messages are the recorded transactions sent to the deployment's address.
func messages(txs []deploy.Tx, to common.Address) []message {
	out := make([]message, len(txs))
	for i, tx := range txs {
		out[i] = message{from: tx.From, to: &to, data: tx.Input, value: tx.Value, gas: tx.Gas, block: tx.Block}
	}
	return out
}

// replay runs msgs on a copy of the post-deployment state (ours forks too).
func (b *bare) replay(msgs []message) []string {
	statuses, _ := b.run(b.post.Copy(), msgs)
	return statuses
}

// run applies msgs in order, one EVM per block, finalising the state after
// each transaction as a block processor does.
func (b *bare) run(st *state.StateDB, msgs []message) ([]string, error) {
	statuses := make([]string, len(msgs))
	var (
		evm   *vm.EVM
		rules params.Rules
		key   chain.Block
		gasOf uint64
	)
	zero := new(uint256.Int)
	for i, m := range msgs {
		limit := max(chain.BlockGasLimit, m.gas)
		if evm == nil || key != m.block || gasOf != limit {
			if evm != nil {
				evm.Release() // hands its stack arena to the next EVM, as go-ethereum asks
			}
			ctx := chain.BlockContext(b.config, m.block, limit)
			evm = vm.NewEVM(ctx, st, b.config, vm.Config{NoBaseFee: true})
			evm.SetJumpDestCache(b.jumpDests)
			rules = b.config.Rules(ctx.BlockNumber, ctx.Random != nil, ctx.Time)
			key, gasOf = m.block, limit
		}
		value, overflow := uint256.FromBig(m.value)
		if overflow || value == nil {
			statuses[i] = statusRejected
			continue
		}
		if st.GetBalance(m.from).Cmp(value) < 0 {
			st.SetBalance(m.from, value.Clone(), tracing.BalanceChangeUnspecified)
		}
		msg := &core.Message{From: m.from, To: m.to, Nonce: st.GetNonce(m.from), Value: value, GasLimit: m.gas,
			GasPrice: zero, GasFeeCap: zero, GasTipCap: zero, Data: m.data}
		msg.SkipNonceCheck().SkipEOACheck().SkipGasLimitCapCheck().SkipExecutionGasCapCheck()
		res, err := core.ApplyMessage(evm, msg, core.NewGasPool(limit))
		st.Finalise(rules)
		statuses[i] = statusOf(res, err)
	}
	if evm != nil {
		evm.Release()
	}
	return statuses, nil
}

// Statuses every engine reports per transaction.
const (
	statusSuccess  = "success"
	statusFailed   = "failed"   // mined, execution failed (revert, out of gas, invalid opcode...)
	statusRejected = "rejected" // never included: below intrinsic gas, too large, harness fault
)

func statusOf(res *core.ExecutionResult, err error) string {
	switch {
	case err != nil || res == nil:
		return statusRejected
	case res.Err != nil:
		return statusFailed
	default:
		return statusSuccess
	}
}

// harnessStatus is the status of one harness result.
func harnessStatus(res *chain.Result, err error) string {
	switch {
	case err != nil || res == nil: // chain.ErrRejected, or a timeout or panic rolled back
		return statusRejected
	case res.Success:
		return statusSuccess
	default:
		return statusFailed
	}
}
