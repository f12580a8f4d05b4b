package democorpus

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/solbehave/solbehave/internal/chain"
)

const (
	// headBlock is the chain head the confirmations are counted from.
	headBlock = 22_400_000
	// probeGas runs a message once before it is recorded, to learn its gas.
	probeGas = chain.DefaultGas
)

// session runs one contract's scenario on the harness and records every
// transaction as Etherscan would list it.
type session struct {
	era      era
	rng      *rand.Rand
	h        *chain.Harness
	abi      abi.ABI
	address  common.Address
	deployer account
	users    []account

	block, time uint64
	maxGap      int // blocks between two transactions: 1..maxGap
	nonces      map[common.Address]uint64
	txs         []TxRecord
	reasons     []string // revert reason per transaction ("" when it succeeded)
	err         error    // the first harness failure; later calls are skipped
}

func newSession(e era, rng *rand.Rand, h *chain.Harness, parsed abi.ABI, deployer account, users []account) *session {
	return &session{era: e, rng: rng, h: h, abi: parsed, deployer: deployer, users: users,
		maxGap: 12, nonces: map[common.Address]uint64{}}
}

// fail keeps the first error; a scenario runs on, as no-ops, until it returns.
func (s *session) fail(err error) {
	if s.err == nil {
		s.err = err
	}
}

// deploy records the creation at block `at`, from the deployer at its nonce.
func (s *session) deploy(at, nonce uint64, code, args []byte) error {
	s.block, s.time = at, s.era.timeOf(at)
	s.h.SetNonce(s.deployer.Addr, nonce)
	s.nonces[s.deployer.Addr] = nonce
	input := append(append([]byte{}, code...), args...)
	res, gas := s.execute(chain.Msg{From: s.deployer.Addr, Data: input, Block: s.blockCtx()})
	if s.err != nil {
		return s.err
	}
	if !res.Success {
		return fmt.Errorf("constructor reverted: %v %s", res.Err, res.RevertReason)
	}
	want := crypto.CreateAddress(s.deployer.Addr, nonce)
	if res.ContractAddress != want {
		return fmt.Errorf("contract landed at %s, not %s", res.ContractAddress.Hex(), want.Hex())
	}
	s.address = want
	s.record(s.deployer.Addr, nil, input, new(big.Int), res, gas, "")
	return nil
}

// install deploys code from the deployer at `nonce` in block `at`, before
// the contract's creation; it is not part of the contract's history.
func (s *session) install(at, nonce uint64, code []byte) error {
	s.block, s.time = at, s.era.timeOf(at)
	s.h.SetNonce(s.deployer.Addr, nonce)
	res, err := s.h.Apply(chain.Msg{From: s.deployer.Addr, Data: code, Gas: probeGas, Block: s.blockCtx()})
	if err != nil {
		return err
	}
	if want := crypto.CreateAddress(s.deployer.Addr, nonce); !res.Success || res.ContractAddress != want {
		return fmt.Errorf("deployment at nonce %d failed or missed %s: %v %s", nonce, want.Hex(), res.Err, res.RevertReason)
	}
	return nil
}

// call sends a transaction to method with args and returns whether it succeeded.
func (s *session) call(from account, value *big.Int, method string, args ...any) bool {
	m, ok := s.abi.Methods[method]
	if !ok {
		s.fail(fmt.Errorf("no method %s in the ABI", method))
		return false
	}
	data, err := s.abi.Pack(method, args...)
	if err != nil {
		s.fail(fmt.Errorf("encode %s: %w", method, err))
		return false
	}
	return s.transact(from, value, data, signatureOf(m))
}

// send transfers ether with no call data: the contract's fallback or receive.
func (s *session) send(from account, value *big.Int) bool {
	return s.transact(from, value, nil, "")
}

func (s *session) transact(from account, value *big.Int, data []byte, fn string) bool {
	if s.err != nil {
		return false
	}
	if value == nil {
		value = new(big.Int)
	}
	s.advance(1 + s.rng.IntN(s.maxGap))
	to := s.address
	res, gas := s.execute(chain.Msg{From: from.Addr, To: &to, Data: data, Value: value, Block: s.blockCtx()})
	if s.err != nil {
		return false
	}
	s.record(from.Addr, &to, data, value, res, gas, fn)
	return res.Success
}

// execute runs m with the gas limit the record will carry and keeps its
// effects. The limit comes from a probe run with ample gas; should the
// recorded limit change the outcome (refunds let a call need more gas than
// it is charged), the limit grows until the outcome matches the probe's, so
// a replay with the recorded limit does what the record says.
func (s *session) execute(m chain.Msg) (*chain.Result, uint64) {
	probeMsg := m
	probeMsg.Gas = probeGas
	probe, err := s.h.Fork().Apply(probeMsg)
	if err != nil {
		s.fail(err)
		return nil, 0
	}
	limit := gasLimitFor(probe.GasUsed)
	for range 6 {
		trial := s.h.Fork()
		m.Gas = limit
		res, err := trial.Apply(m)
		if err != nil {
			s.fail(err)
			return nil, 0
		}
		if res.Success == probe.Success {
			s.h = trial
			return res, limit
		}
		limit = roundUp(limit*3/2, 1000)
	}
	s.fail(errors.New("no gas limit reproduces the probe's outcome"))
	return nil, 0
}

// gasLimitFor is the limit a wallet would have offered: 20% above the gas the
// call used plus 10,000, rounded up to a thousand.
func gasLimitFor(used uint64) uint64 {
	return roundUp(used+used/5+10_000, 1000)
}

func roundUp(v, step uint64) uint64 { return (v + step - 1) / step * step }

func (s *session) blockCtx() chain.Block { return chain.Block{Number: s.block, Time: s.time} }

// advance moves the clock n blocks on.
func (s *session) advance(n int) {
	for range n {
		s.block++
		s.time += s.era.blockSeconds + uint64(s.rng.IntN(int(s.era.jitter)+1))
	}
}

// wait lets about `seconds` pass before the next transaction.
func (s *session) wait(seconds uint64) {
	avg := s.era.blockSeconds + s.era.jitter/2
	s.advance(int(seconds / avg))
}

// waitUntil lets time pass until about t (not at all if t is past).
func (s *session) waitUntil(t uint64) {
	if t > s.time {
		s.wait(t - s.time)
	}
}

// now is the timestamp of the latest recorded block.
func (s *session) now() uint64 { return s.time }

// nextNonce hands out per-sender nonces. A user first seen here already has
// some history elsewhere, so it starts at a random nonce.
func (s *session) nextNonce(from common.Address) uint64 {
	n, ok := s.nonces[from]
	if !ok {
		n = uint64(s.rng.IntN(300))
	}
	s.nonces[from] = n + 1
	return n
}

// record appends the transaction as Etherscan lists it.
func (s *session) record(from common.Address, to *common.Address, input []byte, value *big.Int, res *chain.Result, gas uint64, fn string) {
	index := s.rng.IntN(160)
	cumulative := res.GasUsed + uint64(index)*uint64(21_000+s.rng.IntN(70_000))
	tx := TxRecord{
		BlockNumber:       u64(s.block),
		TimeStamp:         u64(s.time),
		Hash:              txHash(s.addressForHash(to, res), len(s.txs)),
		Nonce:             u64(s.nextNonce(from)),
		BlockHash:         blockHash(s.block),
		TransactionIndex:  strconv.Itoa(index),
		From:              lower(from),
		Value:             value.String(),
		Gas:               u64(gas),
		GasPrice:          s.era.gasPrice(s.rng).String(),
		IsError:           "0",
		TxReceiptStatus:   "1",
		Input:             "0x" + hex.EncodeToString(input),
		CumulativeGasUsed: u64(cumulative),
		GasUsed:           u64(res.GasUsed),
		Confirmations:     u64(headBlock - s.block),
		MethodID:          methodID(input),
		FunctionName:      fn,
	}
	if to == nil {
		tx.ContractAddress = lower(res.ContractAddress)
	} else {
		tx.To = lower(*to)
	}
	reason := ""
	if !res.Success {
		tx.IsError, tx.TxReceiptStatus = "1", "0"
		reason = revertText(res)
	}
	s.txs = append(s.txs, tx)
	s.reasons = append(s.reasons, reason)
}

func (s *session) addressForHash(to *common.Address, res *chain.Result) common.Address {
	if to == nil {
		return res.ContractAddress
	}
	return *to
}

// revertText says why a call failed: its revert reason, else the VM error.
func revertText(res *chain.Result) string {
	switch {
	case res.RevertReason != "":
		return res.RevertReason
	case res.Err != nil:
		return res.Err.Error()
	}
	return "reverted"
}

// view reads a public getter or view function on the current state.
func (s *session) view(method string, args ...any) []any {
	if s.err != nil {
		return nil
	}
	data, err := s.abi.Pack(method, args...)
	if err != nil {
		s.fail(fmt.Errorf("encode %s: %w", method, err))
		return nil
	}
	res, err := s.h.StaticCall(s.deployer.Addr, s.address, data, s.blockCtx())
	if err != nil {
		s.fail(err)
		return nil
	}
	if !res.Success {
		s.fail(fmt.Errorf("view %s reverted: %s", method, res.RevertReason))
		return nil
	}
	out, err := s.abi.Unpack(method, res.ReturnData)
	if err != nil {
		s.fail(fmt.Errorf("decode %s: %w", method, err))
		return nil
	}
	return out
}

// viewUint reads a view that returns one uint256 (0 after a failure).
func (s *session) viewUint(method string, args ...any) *big.Int {
	out := s.view(method, args...)
	if len(out) == 0 {
		return new(big.Int)
	}
	v, ok := out[0].(*big.Int)
	if !ok {
		s.fail(fmt.Errorf("view %s returned %T, not a uint", method, out[0]))
		return new(big.Int)
	}
	return v
}

// signatureOf is the functionName Etherscan shows: "transfer(address _to, uint256 _value)".
func signatureOf(m abi.Method) string {
	params := make([]string, len(m.Inputs))
	for i, in := range m.Inputs {
		params[i] = strings.TrimSpace(in.Type.String() + " " + in.Name)
	}
	return m.RawName + "(" + strings.Join(params, ", ") + ")"
}

func methodID(input []byte) string {
	if len(input) < 4 {
		return "0x"
	}
	return "0x" + hex.EncodeToString(input[:4])
}

// txHash is keccak256(contract address, transaction counter): unique, stable.
func txHash(contract common.Address, counter int) string {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(counter))
	return crypto.Keccak256Hash(contract.Bytes(), b[:]).Hex()
}

// blockHash matches the harness's BLOCKHASH: keccak256 of the big-endian number.
func blockHash(n uint64) string {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], n)
	return crypto.Keccak256Hash(b[:]).Hex()
}

func u64(v uint64) string           { return strconv.FormatUint(v, 10) }
func lower(a common.Address) string { return strings.ToLower(a.Hex()) }
