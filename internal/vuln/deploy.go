package vuln

import (
	"bytes"
	"errors"
	"fmt"
	"math/big"
	"reflect"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/holiman/uint256"

	"github.com/solbehave/solbehave/internal/bytecode"
	"github.com/solbehave/solbehave/internal/chain"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/fuzz"
	"github.com/solbehave/solbehave/internal/solc"
)

// StandaloneDeployer deploys contracts that have no recorded history (a
// labelled benchmark file, say).
var StandaloneDeployer = common.HexToAddress("0x00000000000000000000000000000000de910e00")

// Blocks standalone contracts are deployed in, one per fork whose rules a
// compiler release targets by default (solc's default evmVersion moved to
// istanbul in 0.5.14, london in 0.8.7, shanghai in 0.8.20, cancun in
// 0.8.25): code compiled for a fork uses its opcodes (SELFBALANCE for
// address(this).balance, BASEFEE, PUSH0, MCOPY), which an earlier fork
// rejects as invalid. Older releases run under Petersburg (early 2019).
var (
	PetersburgBlock = chain.Block{Number: 7_500_000, Time: 1_554_000_000}
	IstanbulBlock   = chain.Block{Number: 9_100_000, Time: 1_576_000_000}
	LondonBlock     = chain.Block{Number: 13_000_000, Time: 1_628_000_000}
	ShanghaiBlock   = chain.Block{Number: 17_100_000, Time: 1_682_000_000}
	CancunBlock     = chain.Block{Number: 19_500_000, Time: 1_711_000_000}
)

// forkSince lists, newest first, the first release whose default target
// needs each block.
var forkSince = []struct {
	minor, patch int
	block        chain.Block
}{
	{8, 25, CancunBlock},
	{8, 20, ShanghaiBlock},
	{8, 7, LondonBlock},
	{5, 14, IstanbulBlock},
}

// BlockFor picks the deployment block for a compiler release ("0.8.21"):
// the first block of the fork the release compiles for by default.
func BlockFor(release string) chain.Block {
	var major, minor, patch int
	if _, err := fmt.Sscanf(release, "%d.%d.%d", &major, &minor, &patch); err != nil {
		return PetersburgBlock
	}
	if major > 0 {
		return forkSince[0].block
	}
	for _, f := range forkSince {
		if minor > f.minor || minor == f.minor && patch >= f.patch {
			return f.block
		}
	}
	return PetersburgBlock
}

// CreationValue is the Ether a payable constructor receives.
var CreationValue = ether(1)

// StubAddress holds a contract that accepts any call and returns nothing
// (its code is STOP). Constructor address arguments default to it: with the
// zero address, a contract that wires a helper (a log, a registry) through
// its constructor would revert on every call to it (solc checks the callee
// has code).
var StubAddress = common.HexToAddress("0x000000000000000000000000000000000000570b")

// stubHardCoded installs StubAddress's code at every address the code
// pushes as a constant (PUSH20 of a value above 2^100, not the all-ones
// address mask) that has no code yet: the contracts a file names by address
// (a log, a library, a token) existed where it was deployed, and on a fresh
// chain a call to them would revert before any of the file's own logic
// runs. Accounts that were plain addresses gain a STOP, which accepts Ether
// and calls as an account does.
func stubHardCoded(h *chain.Harness, code []byte) {
	floor := new(uint256.Int).Lsh(uint256.NewInt(1), 100)
	for _, in := range bytecode.DisassembleRaw(code) {
		if in.Op != vm.PUSH20 || in.Truncated() {
			continue
		}
		v := in.Value()
		if v.Lt(floor) || bytes.Equal(in.Arg, bytes.Repeat([]byte{0xff}, 20)) {
			continue
		}
		a := common.BytesToAddress(in.Arg)
		if len(h.Code(a)) == 0 {
			h.SetCode(a, []byte{0x00})
		}
	}
}

// DeployStandalone deploys c from StandaloneDeployer on a fresh chain with
// default constructor arguments (every argument its type's zero value:
// 0, false, empty bytes and arrays; an address argument names StubAddress,
// installed first) and some Ether (sent
// with the creation when the constructor is payable; Run credits the
// contract with Config.Fund in any case). Libraries c links against are
// deployed first from the same account; addresses the code names as
// constants get a stub first (see stubHardCoded).
func DeployStandalone(out *solc.Output, c *solc.Contract, b chain.Block) (Target, error) {
	parsed, err := abi.JSON(bytes.NewReader(c.ABI))
	if err != nil {
		return Target{}, fmt.Errorf("ABI of %s: %w", c.Name, err)
	}
	h := chain.New(chain.Options{})
	h.SetCode(StubAddress, []byte{0x00})
	libs, err := deploy.Libraries(h, out, c, StandaloneDeployer, b)
	if err != nil {
		return Target{}, err
	}
	code, err := c.CreationCode(libs)
	if err != nil {
		return Target{}, err
	}
	stubHardCoded(h, code)
	args, err := defaultArgs(parsed.Constructor.Inputs)
	if err != nil {
		return Target{}, fmt.Errorf("constructor arguments: %w", err)
	}
	value := new(big.Int)
	if parsed.Constructor.IsPayable() {
		value.Set(CreationValue)
	}
	msg := chain.Msg{From: StandaloneDeployer, Data: append(code, args...), Value: value, Gas: chain.DefaultGas, Block: b}
	pre := h.Fork()
	done, addr, note, err := create(pre, msg)
	if isReverted(err) && len(parsed.Constructor.Inputs) > 0 {
		// A constructor that refuses the zero values (a non-zero supply, a
		// start before an end): arguments the fuzzer chooses, seeded.
		gen := fuzz.NewGenerator(42, constructorDictionary(code))
		for try := 1; try <= constructorTries && isReverted(err); try++ {
			vals, verr := gen.Values(parsed.Constructor.Inputs)
			if verr != nil {
				break
			}
			fuzzed, perr := parsed.Constructor.Inputs.Pack(vals...)
			if perr != nil {
				continue
			}
			m := msg
			m.Data = append(append([]byte(nil), code...), fuzzed...)
			if d, a, n, e := create(pre, m); !isReverted(e) {
				done, addr, err, msg = d, a, e, m
				note = strings.TrimPrefix(fmt.Sprintf("%s; constructor arguments chosen by the fuzzer (try %d of %d: the zero values revert)", n, try, constructorTries), "; ")
			}
		}
	}
	if err != nil {
		return Target{}, err
	}
	return Target{Chain: done, Address: addr, Deployer: StandaloneDeployer, ABI: c.ABI, Block: b, Deployment: note,
		BlockSlots: blockSlots(pre, msg, done, addr)}, nil
}

// constructorTries bounds the fuzzed constructor argument tuples tried.
const constructorTries = 32

// constructorDictionary seeds constructor arguments with the creation
// code's constants and the run's accounts.
func constructorDictionary(code []byte) *fuzz.Dictionary {
	d := fuzz.NewDictionary()
	d.AddAddress(StandaloneDeployer)
	d.AddAddress(StubAddress)
	d.AddBytecode(code)
	return d
}

// create applies a creation message on a fork of pre. Code above EIP-170's
// 24,576 bytes is lifted as test chains do (Foundry, Echidna): the creation
// code runs as a call at the address the creation would have taken, and
// what it returns becomes that address's code; the note says so.
func create(pre *chain.Harness, msg chain.Msg) (*chain.Harness, common.Address, string, error) {
	h := pre.Fork()
	res, err := h.Apply(msg)
	if err != nil {
		return nil, common.Address{}, "", err
	}
	if !res.Success && errors.Is(res.Err, vm.ErrMaxCodeSizeExceeded) {
		h = pre.Fork()
		addr := res.ContractAddress
		h.SetCode(addr, msg.Data)
		call := msg
		call.To, call.Data = &addr, nil
		res, err = h.Apply(call)
		if err != nil {
			return nil, common.Address{}, "", err
		}
		if !res.Success {
			return nil, common.Address{}, "", h.Created(res)
		}
		h.SetCode(addr, res.ReturnData)
		if len(res.ReturnData) == 0 {
			return nil, common.Address{}, "", &chain.CreationError{Reason: "constructor left no code"}
		}
		return h, addr, fmt.Sprintf("code size limit lifted (%d bytes > EIP-170's 24,576)", len(res.ReturnData)), nil
	}
	if err := h.Created(res); err != nil {
		return nil, common.Address{}, "", err
	}
	return h, res.ContractAddress, "", nil
}

// isReverted reports whether a creation failed in its constructor (not for
// its size, nor for the machine).
func isReverted(err error) bool {
	var ce *chain.CreationError
	return errors.As(err, &ce)
}

// blockSlotRange is how many of the first storage slots blockSlots compares
// (the state variables of a contract; mappings and arrays live elsewhere).
const blockSlotRange = 64

// blockSlots deploys msg again on pre (the state before the deployment) one
// block and 15 seconds later, and returns the slots among the first
// blockSlotRange whose value then differs from the deployment on done at
// addr: block-state class, values the constructor derived from its block
// (a lottery's answer drawn from blockhash and now at deployment, a start
// time), which no transaction's trace shows (extension deploy-block-state).
func blockSlots(pre *chain.Harness, msg chain.Msg, done *chain.Harness, addr common.Address) []uint256.Int {
	defer pre.Release()
	msg.Block = chain.Block{Number: msg.Block.Number + 1, Time: msg.Block.Time + 15}
	res, err := pre.Apply(msg)
	if err != nil || pre.Created(res) != nil || res.ContractAddress != addr {
		return nil
	}
	var out []uint256.Int
	for i := range uint64(blockSlotRange) {
		slot := common.BigToHash(new(big.Int).SetUint64(i))
		if pre.StorageAt(addr, slot) != done.StorageAt(addr, slot) {
			out = append(out, *uint256.NewInt(i))
		}
	}
	return out
}

// defaultArgs encodes the default of every input: StubAddress for an
// address, the zero value otherwise.
func defaultArgs(inputs abi.Arguments) ([]byte, error) {
	if len(inputs) == 0 {
		return nil, nil
	}
	vals := make([]any, len(inputs))
	for i, in := range inputs {
		if in.Type.T == abi.AddressTy {
			vals[i] = StubAddress
			continue
		}
		v, err := zeroValue(in.Type)
		if err != nil {
			return nil, err
		}
		vals[i] = v.Interface()
	}
	return inputs.Pack(vals...)
}

// zeroValue is the Go value go-ethereum's abi packs as t's zero.
func zeroValue(t abi.Type) (reflect.Value, error) {
	switch t.T {
	case abi.StringTy:
		return reflect.ValueOf(""), nil
	case abi.BytesTy:
		return reflect.ValueOf([]byte{}), nil
	case abi.FunctionTy:
		return reflect.ValueOf([24]byte{}), nil
	case abi.SliceTy:
		return reflect.MakeSlice(t.GetType(), 0, 0), nil
	case abi.ArrayTy:
		v := reflect.New(t.GetType()).Elem()
		for i := range t.Size {
			e, err := zeroValue(*t.Elem)
			if err != nil {
				return v, err
			}
			v.Index(i).Set(e)
		}
		return v, nil
	case abi.TupleTy:
		v := reflect.New(t.TupleType).Elem()
		for i, et := range t.TupleElems {
			e, err := zeroValue(*et)
			if err != nil {
				return v, err
			}
			v.Field(i).Set(e)
		}
		return v, nil
	}
	g, err := fuzz.GoValue(t, uint256.Int{})
	if err != nil {
		return reflect.Value{}, err
	}
	return reflect.ValueOf(g), nil
}
