// Package guardstate reads a deployed contract's state for DCR guards: it
// implements dcrgraph.State (with the dcrgraph.Chain and dcrgraph.Self extensions) over a
// contract on the embedded EVM harness. Public state variables and
// single-key mappings are read through their getters, as the paper's
// Algorithm 1 does; the others through the storage layout (solc's own from
// 0.5.13, computed from the AST for older compilers): value types in place,
// mapping entries at keccak256(key . slot). The O3 sequence generator builds
// one State per contract and asks At for the view of each step.
package guardstate

import (
	"errors"
	"fmt"
	"math/big"
	"reflect"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/solbehave/solbehave/internal/chain"
	"github.com/solbehave/solbehave/internal/dcrgraph"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/fuzz"
)

// ErrUnreadable is returned (wrapped) for state a guard cannot read: an
// unknown name, a struct or array, a mapping with a non-value key or value.
var ErrUnreadable = errors.New("state not readable by guards")

// State is the guard view of one deployed contract. It reads the harness
// it was given at the time of each call, so it always sees the current
// state; At fixes the sender and block of the step about to run.
type State struct {
	h      *chain.Harness
	addr   common.Address
	abi    abi.ABI
	layout *Layout
	sender common.Address
	block  chain.Block
}

var (
	_ dcrgraph.State = (*State)(nil)
	_ dcrgraph.Chain = (*State)(nil)
	_ dcrgraph.Self  = (*State)(nil)
)

// New returns the view of the contract at addr on h, with getters run in
// block b (the fork rules the contract was compiled for; the deployment's
// block will do) until At says otherwise. layout may be nil (then only
// getters are used).
func New(h *chain.Harness, addr common.Address, parsed abi.ABI, layout *Layout, b chain.Block) *State {
	return &State{h: h, addr: addr, abi: parsed, layout: layout, block: b}
}

// ForDeployment is New for a deployment's contract on h (the deployment's
// own chain or a fork of it), in the deployment's block.
func ForDeployment(d *deploy.Deployment, h *chain.Harness, layout *Layout) *State {
	return New(h, d.Address, d.ABI, layout, d.Block)
}

// At returns the view for a step sent by sender in block b (getters run in
// that block; `now` and `block.number` read it).
func (s *State) At(sender common.Address, b chain.Block) *State {
	c := *s
	c.sender, c.block = sender, b
	return &c
}

// Sender is msg.sender of the step about to run.
func (s *State) Sender() dcrgraph.Value { return dcrgraph.AddressValue(s.sender) }

// This is the contract's own address.
func (s *State) This() dcrgraph.Value { return dcrgraph.AddressValue(s.addr) }

// Balance is the contract's ether balance.
func (s *State) Balance() (dcrgraph.Value, error) { return dcrgraph.IntValue(s.h.Balance(s.addr)), nil }

// Timestamp is the time of the step's block.
func (s *State) Timestamp() (dcrgraph.Value, error) {
	return dcrgraph.IntValue(new(big.Int).SetUint64(s.block.Time)), nil
}

// BlockNumber is the number of the step's block.
func (s *State) BlockNumber() (dcrgraph.Value, error) {
	return dcrgraph.IntValue(new(big.Int).SetUint64(s.block.Number)), nil
}

// Var reads a state variable: its getter when it has one, else storage.
func (s *State) Var(name string) (dcrgraph.Value, error) {
	if m, ok := s.getter(name, 0); ok {
		return s.call(m, nil)
	}
	v, err := s.storageVar(name)
	if err != nil {
		return dcrgraph.Value{}, err
	}
	if v.Type.valueKind() == "" {
		return dcrgraph.Value{}, fmt.Errorf("%w: %s is a %s", ErrUnreadable, name, v.Type.Label)
	}
	return s.readValue(v.Slot, v.Offset, v.Type)
}

// Mapping reads m[key]: the getter when it has one, else storage.
func (s *State) Mapping(name string, key dcrgraph.Value) (dcrgraph.Value, error) {
	if m, ok := s.getter(name, 1); ok {
		arg, err := abiArg(m.Inputs[0].Type, key)
		if err != nil {
			return dcrgraph.Value{}, fmt.Errorf("%s[%s]: %w", name, key, err)
		}
		return s.call(m, []any{arg})
	}
	v, err := s.storageVar(name)
	if err != nil {
		return dcrgraph.Value{}, err
	}
	if v.Type.Encoding != "mapping" || v.Type.Value.valueKind() == "" || v.Type.Key.valueKind() == "" {
		return dcrgraph.Value{}, fmt.Errorf("%w: %s is a %s, not a mapping to a value", ErrUnreadable, name, v.Type.Label)
	}
	word, err := keyWord(*v.Type.Key, key)
	if err != nil {
		return dcrgraph.Value{}, fmt.Errorf("%s[%s]: %w", name, key, err)
	}
	slot := crypto.Keccak256(word, common.BigToHash(v.Slot).Bytes())
	return s.readValue(new(big.Int).SetBytes(slot), 0, *v.Type.Value)
}

// getter finds a public getter with n inputs and one value output.
func (s *State) getter(name string, n int) (abi.Method, bool) {
	m, ok := s.abi.Methods[name]
	if !ok || len(m.Inputs) != n || len(m.Outputs) != 1 || !m.IsConstant() {
		return abi.Method{}, false
	}
	switch m.Outputs[0].Type.T {
	case abi.IntTy, abi.UintTy, abi.BoolTy, abi.AddressTy, abi.FixedBytesTy:
		return m, true
	}
	return abi.Method{}, false
}

func (s *State) call(m abi.Method, args []any) (dcrgraph.Value, error) {
	data, err := m.Inputs.Pack(args...)
	if err != nil {
		return dcrgraph.Value{}, fmt.Errorf("%s: %w", m.Name, err)
	}
	res, err := s.h.StaticCall(s.sender, s.addr, append(m.ID, data...), s.block)
	if err != nil {
		return dcrgraph.Value{}, fmt.Errorf("%s(): %w", m.Name, err)
	}
	if !res.Success {
		return dcrgraph.Value{}, fmt.Errorf("%s() reverted: %v %s", m.Name, res.Err, res.RevertReason)
	}
	out, err := m.Outputs.Unpack(res.ReturnData)
	if err != nil || len(out) != 1 {
		return dcrgraph.Value{}, fmt.Errorf("%s(): bad return data: %v", m.Name, err)
	}
	return fromABI(out[0])
}

func (s *State) storageVar(name string) (Var, error) {
	if s.layout == nil {
		return Var{}, fmt.Errorf("%w: %s has no getter and the storage layout is unknown", ErrUnreadable, name)
	}
	v, ok := s.layout.Vars[name]
	if !ok {
		return Var{}, fmt.Errorf("%w: no state variable %s", ErrUnreadable, name)
	}
	return v, nil
}

// readValue decodes a value type stored at (slot, offset).
func (s *State) readValue(slot *big.Int, offset int, t Type) (dcrgraph.Value, error) {
	word := s.h.StorageAt(s.addr, common.BigToHash(slot))
	if offset < 0 || t.Bytes <= 0 || offset+t.Bytes > 32 {
		return dcrgraph.Value{}, fmt.Errorf("%w: %s at offset %d", ErrUnreadable, t.Label, offset)
	}
	raw := word[32-offset-t.Bytes : 32-offset]
	switch t.valueKind() {
	case "bool":
		return dcrgraph.BoolValue(new(big.Int).SetBytes(raw).Sign() != 0), nil
	case "address":
		var a [20]byte
		copy(a[:], raw[len(raw)-20:])
		return dcrgraph.AddressValue(a), nil
	case "int":
		return dcrgraph.WordValue(raw, true), nil
	case "uint", "fixedbytes":
		return dcrgraph.WordValue(raw, false), nil
	}
	return dcrgraph.Value{}, fmt.Errorf("%w: %s", ErrUnreadable, t.Label)
}

// keyWord encodes a mapping key as solc hashes it: value types padded to a
// word (fixed bytes on the right, everything else on the left).
func keyWord(t Type, key dcrgraph.Value) ([]byte, error) {
	n, err := keyInt(key)
	if err != nil {
		return nil, err
	}
	switch t.valueKind() {
	case "fixedbytes":
		b := make([]byte, 32)
		n.FillBytes(b[:t.Bytes])
		return b, nil
	case "int":
		if n.Sign() < 0 {
			n = new(big.Int).Add(n, new(big.Int).Lsh(big.NewInt(1), 256))
		}
	}
	if n.Sign() < 0 || n.BitLen() > 256 {
		return nil, fmt.Errorf("key %s does not fit a word", key)
	}
	return common.BigToHash(n).Bytes(), nil
}

func keyInt(v dcrgraph.Value) (*big.Int, error) {
	switch v.Kind() {
	case dcrgraph.KindInt:
		n, _ := v.Int()
		return n, nil
	case dcrgraph.KindAddress:
		a, _ := v.Address()
		return new(big.Int).SetBytes(a[:]), nil
	case dcrgraph.KindBool:
		if b, _ := v.Bool(); b {
			return big.NewInt(1), nil
		}
		return new(big.Int), nil
	}
	return nil, errors.New("invalid key")
}

// abiArg converts a guard value to the Go value abi.Pack wants for t.
func abiArg(t abi.Type, v dcrgraph.Value) (any, error) {
	switch t.T {
	case abi.AddressTy:
		if a, ok := v.Address(); ok {
			return common.Address(a), nil
		}
		if n, ok := v.Int(); ok && n.Sign() >= 0 && n.BitLen() <= 160 {
			return common.BigToAddress(n), nil
		}
	case abi.BoolTy:
		if b, ok := v.Bool(); ok {
			return b, nil
		}
	case abi.UintTy, abi.IntTy:
		n, ok := v.Int()
		if !ok {
			if a, isAddr := v.Address(); isAddr {
				n, ok = new(big.Int).SetBytes(a[:]), true
			}
		}
		if ok {
			return sizedInt(t, n)
		}
	case abi.FixedBytesTy:
		if n, ok := v.Int(); ok && n.Sign() >= 0 && n.BitLen() <= 8*t.Size {
			arr := reflectFixedBytes(t.Size, n)
			return arr, nil
		}
	}
	return nil, fmt.Errorf("%s is not a %s", v, t)
}

// sizedInt converts n to the Go type go-ethereum packs for t (t.GetType()):
// a Go int of 8, 16, 32 or 64 bits, and *big.Int for every other width
// (uint24, int40, ...). A value that does not fit a width of at most 64
// bits is refused, not wrapped.
func sizedInt(t abi.Type, n *big.Int) (any, error) {
	if t.Size > 64 {
		return n, nil
	}
	if !fits(t, n) {
		return nil, fmt.Errorf("%s out of range for %s", n, t)
	}
	goType := t.GetType()
	switch {
	case goType.Kind() == reflect.Ptr:
		return n, nil
	case t.T == abi.UintTy:
		return reflect.ValueOf(n.Uint64()).Convert(goType).Interface(), nil
	}
	return reflect.ValueOf(n.Int64()).Convert(goType).Interface(), nil
}

// fits reports whether n is a value of the integer type t.
func fits(t abi.Type, n *big.Int) bool {
	if t.T == abi.IntTy {
		limit := new(big.Int).Lsh(big.NewInt(1), uint(t.Size-1))
		return n.Cmp(new(big.Int).Neg(limit)) >= 0 && n.Cmp(limit) < 0
	}
	return n.Sign() >= 0 && n.BitLen() <= t.Size
}

// fromABI converts a decoded getter output into a guard value.
func fromABI(x any) (dcrgraph.Value, error) {
	switch v := x.(type) {
	case *big.Int:
		return dcrgraph.IntValue(v), nil
	case bool:
		return dcrgraph.BoolValue(v), nil
	case common.Address:
		return dcrgraph.AddressValue(v), nil
	case uint8:
		return dcrgraph.IntValue(new(big.Int).SetUint64(uint64(v))), nil
	case uint16:
		return dcrgraph.IntValue(new(big.Int).SetUint64(uint64(v))), nil
	case uint32:
		return dcrgraph.IntValue(new(big.Int).SetUint64(uint64(v))), nil
	case uint64:
		return dcrgraph.IntValue(new(big.Int).SetUint64(v)), nil
	case int8:
		return dcrgraph.Int64Value(int64(v)), nil
	case int16:
		return dcrgraph.Int64Value(int64(v)), nil
	case int32:
		return dcrgraph.Int64Value(int64(v)), nil
	case int64:
		return dcrgraph.Int64Value(v), nil
	}
	if b, ok := fuzz.FixedBytes(x); ok {
		return dcrgraph.WordValue(b, false), nil
	}
	return dcrgraph.Value{}, fmt.Errorf("%w: getter returns %T", ErrUnreadable, x)
}
