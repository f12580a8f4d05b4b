package fuzz

import (
	"sort"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/holiman/uint256"
)

// Primitive reports whether t is one of the ABI value types O1 fuzzes:
// bool, address, uint8..uint256, int8..int256 and bytes1..bytes32 (enums and
// `address payable` reach the ABI as uint8 and address, so they count too).
// Each encodes as exactly one 32-byte word, which is what lets the fuzzer
// keep argument tuples as words and build call data without an ABI encoder.
// Dynamic and composite types (string, bytes, arrays, tuples) and the rare
// function and fixed-point types are not primitive.
func Primitive(t abi.Type) bool {
	switch t.T {
	case abi.BoolTy, abi.AddressTy, abi.UintTy, abi.IntTy:
		return true
	case abi.FixedBytesTy:
		return t.Size >= 1 && t.Size <= 32
	}
	return false
}

// Supported reports whether Generator.Value can produce a value of type t:
// every primitive, plus string, bytes, fixed and dynamic arrays, tuples and
// function references whose elements are supported. Fixed-point types
// (which solc never emits) are not.
func Supported(t abi.Type) bool {
	switch t.T {
	case abi.StringTy, abi.BytesTy, abi.FunctionTy:
		return true
	case abi.SliceTy, abi.ArrayTy:
		return t.Elem != nil && Supported(*t.Elem)
	case abi.TupleTy:
		for _, e := range t.TupleElems {
			if !Supported(*e) {
				return false
			}
		}
		return true
	}
	return Primitive(t)
}

// Fuzzable reports whether O1 fuzzes m: it changes state (nonpayable or
// payable, not view, pure or an old `constant`) and every input is
// Primitive. A function without inputs qualifies.
func Fuzzable(m abi.Method) bool {
	if m.IsConstant() || m.Type != abi.Function {
		return false
	}
	for _, in := range m.Inputs {
		if !Primitive(in.Type) {
			return false
		}
	}
	return true
}

// FuzzableMethods returns the fuzzable functions of an ABI, sorted by
// signature so every run visits them in the same order.
func FuzzableMethods(a abi.ABI) []abi.Method {
	var out []abi.Method
	for _, m := range a.Methods {
		if Fuzzable(m) {
			out = append(out, m)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Sig < out[j].Sig })
	return out
}

// Canonical maps any word to the nearest valid encoding of t: the low bits
// of a uintN or address, the sign-extended low bits of an intN, the high
// bytes of a bytesN, the low bit of a bool. Every value the fuzzer sends
// went through here, so both deployments always see well-formed arguments.
func Canonical(t abi.Type, w uint256.Int) uint256.Int {
	switch t.T {
	case abi.BoolTy:
		w[0], w[1], w[2], w[3] = w[0]&1, 0, 0, 0
	case abi.AddressTy:
		w[2] &= 0xffffffff
		w[3] = 0
	case abi.UintTy:
		w = lowBits(w, uint(t.Size))
	case abi.IntTy:
		if t.Size < 256 {
			w.ExtendSign(&w, uint256.NewInt(uint64(t.Size/8-1)))
		}
	case abi.FixedBytesTy:
		if t.Size < 32 {
			var mask uint256.Int
			mask.SetAllOne().Lsh(&mask, uint(256-8*t.Size))
			w.And(&w, &mask)
		}
	}
	return w
}

// lowBits keeps the low n bits of w.
func lowBits(w uint256.Int, n uint) uint256.Int {
	if n >= 256 {
		return w
	}
	var mask uint256.Int
	mask.SetOne().Lsh(&mask, n).SubUint64(&mask, 1)
	return *w.And(&w, &mask)
}

// Boundaries returns the edge values of a primitive type, canonical and
// without duplicates: 0, 1, 2, the maximum and its neighbours, the middle,
// and for signed integers -1 and the minimum with its neighbour.
func Boundaries(t abi.Type) []uint256.Int {
	var out []uint256.Int
	add := func(w uint256.Int) {
		w = Canonical(t, w)
		for _, o := range out {
			if o == w {
				return
			}
		}
		out = append(out, w)
	}
	var w uint256.Int
	add(w)
	add(*w.SetOne())
	switch t.T {
	case abi.BoolTy:
		return out
	case abi.UintTy, abi.AddressTy:
		bits := uint(t.Size)
		if t.T == abi.AddressTy {
			bits = 160
		}
		var max uint256.Int
		max = lowBits(*max.SetAllOne(), bits)
		add(*w.SetUint64(2))
		add(max)
		add(*w.SubUint64(&max, 1))
		add(*w.Rsh(&max, 1))
		add(*w.AddUint64(w.Rsh(&max, 1), 1))
	case abi.IntTy:
		var min, max uint256.Int
		min.SetOne().Lsh(&min, uint(t.Size-1)) // 2^(N-1): sign-extends to the minimum
		max.SubUint64(&min, 1)
		add(*w.SetAllOne()) // -1
		add(*w.SetUint64(2))
		add(min)
		add(*w.AddUint64(&min, 1))
		add(max)
		add(*w.SubUint64(&max, 1))
	case abi.FixedBytesTy:
		add(*w.SetAllOne())
		add(*w.SetOne().Lsh(&w, 255))
	}
	return out
}

// Missing tells whether a sample lacks the original's function m: no
// function of its ABI has m's selector, or the one that has returns other
// types. Such a pair is never equivalent: a call to an absent function
// reverts as a guarded call of the original may, so the fuzzer could find
// nothing to tell them apart (and the paper's harness, which calls the
// function on both, could not be built for it).
func Missing(sample abi.ABI, m abi.Method) bool {
	got, err := sample.MethodById(m.ID)
	if err != nil {
		return true
	}
	return typeList(got.Outputs) != typeList(m.Outputs)
}

func typeList(args abi.Arguments) string {
	types := make([]string, len(args))
	for i, a := range args {
		types[i] = a.Type.String()
	}
	return strings.Join(types, ",")
}
