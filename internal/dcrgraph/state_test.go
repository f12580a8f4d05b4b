package dcrgraph

import (
	"errors"
	"fmt"
	"math/big"
)

// fakeState is a State backed by maps: the engine's unit tests need values
// they can switch between steps, not a contract.
type fakeState struct {
	vars     map[string]Value
	mappings map[string]map[string]Value // key: Value.String()
	balance  Value
	sender   Value
}

func newFakeState() *fakeState {
	return &fakeState{vars: map[string]Value{}, mappings: map[string]map[string]Value{},
		balance: Int64Value(0), sender: AddressValue(addr(0xa11ce))}
}

func (f *fakeState) Var(name string) (Value, error) {
	v, ok := f.vars[name]
	if !ok {
		return Value{}, fmt.Errorf("no state variable %q", name)
	}
	return v, nil
}

func (f *fakeState) Mapping(name string, key Value) (Value, error) {
	m, ok := f.mappings[name]
	if !ok {
		return Value{}, fmt.Errorf("no mapping %q", name)
	}
	if v, ok := m[key.String()]; ok {
		return v, nil
	}
	return Int64Value(0), nil // a mapping's default value
}

func (f *fakeState) Balance() (Value, error) { return f.balance, nil }
func (f *fakeState) Sender() Value           { return f.sender }

func (f *fakeState) set(name string, v Value) *fakeState { f.vars[name] = v; return f }

func (f *fakeState) setMapping(name string, key, v Value) *fakeState {
	if f.mappings[name] == nil {
		f.mappings[name] = map[string]Value{}
	}
	f.mappings[name][key.String()] = v
	return f
}

// chainState adds the block to fakeState.
type chainState struct {
	*fakeState
	time, number int64
}

func (c chainState) Timestamp() (Value, error)   { return Int64Value(c.time), nil }
func (c chainState) BlockNumber() (Value, error) { return Int64Value(c.number), nil }
func (c chainState) This() Value                 { return AddressValue(addr(0xc0de)) }

// brokenState fails every read, as an unreachable node would.
type brokenState struct{ fakeState }

var errUnreachable = errors.New("node unreachable")

func (brokenState) Balance() (Value, error) { return Value{}, errUnreachable }

func addr(n int64) [20]byte {
	var a [20]byte
	big.NewInt(n).FillBytes(a[:])
	return a
}

func ether(n int64) Value {
	return IntValue(new(big.Int).Mul(big.NewInt(n), big.NewInt(1e18)))
}
