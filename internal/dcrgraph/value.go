package dcrgraph

import (
	"encoding/hex"
	"math/big"
)

// Kind tells which of the three guard value types a Value holds.
type Kind uint8

const (
	KindInvalid Kind = iota // the zero Value
	KindInt                 // a mathematical integer (uintN and intN alike)
	KindBool
	KindAddress // 20 bytes
)

func (k Kind) String() string {
	switch k {
	case KindInt:
		return "int"
	case KindBool:
		return "bool"
	case KindAddress:
		return "address"
	}
	return "invalid"
}

// Value is what a guard computes with: an integer, a bool or an address.
// Integers are unbounded and signed, so int256 state reads negative and
// arithmetic in a guard never wraps. A Value is immutable.
type Value struct {
	kind Kind
	n    *big.Int
	b    bool
	a    [20]byte
}

// IntValue returns an integer Value holding a copy of n.
func IntValue(n *big.Int) Value {
	if n == nil {
		n = new(big.Int)
	}
	return Value{kind: KindInt, n: new(big.Int).Set(n)}
}

// Int64Value returns an integer Value.
func Int64Value(n int64) Value { return Value{kind: KindInt, n: big.NewInt(n)} }

// BoolValue returns a bool Value.
func BoolValue(b bool) Value { return Value{kind: KindBool, b: b} }

// AddressValue returns an address Value.
func AddressValue(a [20]byte) Value { return Value{kind: KindAddress, a: a} }

// WordValue decodes a big-endian ABI word (at most 32 bytes, as a getter
// returns it) into an integer; signed words are read as two's complement,
// so an int256 getter returning 0xff..ff yields -1.
func WordValue(word []byte, signed bool) Value {
	n := new(big.Int).SetBytes(word)
	bits := uint(len(word)) * 8
	if signed && bits > 0 && n.Bit(int(bits)-1) == 1 {
		n.Sub(n, new(big.Int).Lsh(big.NewInt(1), bits))
	}
	return Value{kind: KindInt, n: n}
}

// Kind reports the type of v.
func (v Value) Kind() Kind { return v.kind }

// Int returns a copy of the integer held by v.
func (v Value) Int() (*big.Int, bool) {
	if v.kind != KindInt {
		return nil, false
	}
	return new(big.Int).Set(v.n), true
}

// Bool returns the bool held by v.
func (v Value) Bool() (bool, bool) { return v.b, v.kind == KindBool }

// Address returns the address held by v.
func (v Value) Address() ([20]byte, bool) { return v.a, v.kind == KindAddress }

// Equal reports whether v and w hold the same value of the same kind.
func (v Value) Equal(w Value) bool {
	if v.kind != w.kind {
		return false
	}
	switch v.kind {
	case KindInt:
		return v.n.Cmp(w.n) == 0
	case KindBool:
		return v.b == w.b
	case KindAddress:
		return v.a == w.a
	}
	return true
}

// String renders v as a guard literal would be written: decimal integers,
// true/false, 0x-prefixed lower-case addresses.
func (v Value) String() string {
	switch v.kind {
	case KindInt:
		return v.n.String()
	case KindBool:
		if v.b {
			return "true"
		}
		return "false"
	case KindAddress:
		return "0x" + hex.EncodeToString(v.a[:])
	}
	return "<invalid>"
}

// asInt returns v as an integer, reading an address as uint160, the way
// Solidity compares `owner != 0x0` in old compilers.
func (v Value) asInt() (*big.Int, bool) {
	switch v.kind {
	case KindInt:
		return v.n, true
	case KindAddress:
		return new(big.Int).SetBytes(v.a[:]), true
	}
	return nil, false
}

// intToAddress converts an integer to an address when it fits in 160 bits.
func intToAddress(n *big.Int) (Value, bool) {
	if n.Sign() < 0 || n.BitLen() > 160 {
		return Value{}, false
	}
	var a [20]byte
	n.FillBytes(a[:])
	return AddressValue(a), true
}
