package fuzz

import (
	"encoding/json"
	"fmt"
	"math/big"
	"reflect"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/holiman/uint256"
)

// Tuple is the arguments of one call to a function whose inputs are all
// Primitive: one canonical 32-byte word per argument, exactly as the ABI
// encodes it. Mutating a word and appending it after the selector is all it
// takes to build call data, so the hot loop never runs an ABI encoder.
type Tuple []uint256.Int

// Clone returns an independent copy.
func (t Tuple) Clone() Tuple { return append(Tuple(nil), t...) }

// AppendCallData appends selector and the encoded words to dst.
func (t Tuple) AppendCallData(dst []byte, selector []byte) []byte {
	dst = append(dst, selector...)
	for i := range t {
		b := t[i].Bytes32()
		dst = append(dst, b[:]...)
	}
	return dst
}

// CallData is m's selector followed by the encoded tuple.
func (t Tuple) CallData(m abi.Method) []byte {
	return t.AppendCallData(make([]byte, 0, 4+32*len(t)), m.ID)
}

// TupleFromCallData reads a tuple back from call data (selector included)
// of a function with primitive inputs, canonicalising every word; short data
// is zero-padded, as the EVM would read it. Handy to seed a corpus from
// recorded transactions.
func TupleFromCallData(args abi.Arguments, data []byte) (Tuple, error) {
	for _, a := range args {
		if !Primitive(a.Type) {
			return nil, fmt.Errorf("fuzz: argument %s has non-primitive type %s", a.Name, a.Type)
		}
	}
	if len(data) < 4 {
		return nil, fmt.Errorf("fuzz: call data of %d bytes has no selector", len(data))
	}
	body := data[4:]
	t := make(Tuple, len(args))
	for i, a := range args {
		var word [32]byte
		if off := 32 * i; off < len(body) {
			copy(word[:], body[off:])
		}
		t[i].SetBytes32(word[:])
		t[i] = Canonical(a.Type, t[i])
	}
	return t, nil
}

// Values converts the tuple to the Go values go-ethereum's abi package packs
// and unpacks (uint8, int64, *big.Int, common.Address, [N]byte, bool).
func (t Tuple) Values(args abi.Arguments) ([]any, error) {
	if len(t) != len(args) {
		return nil, fmt.Errorf("fuzz: %d words for %d arguments", len(t), len(args))
	}
	out := make([]any, len(t))
	for i, a := range args {
		v, err := GoValue(a.Type, t[i])
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// FixedBytes reads a decoded bytesN: go-ethereum's abi returns [N]byte, an
// array of any N, which only reflection can slice.
func FixedBytes(v any) ([]byte, bool) {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Array || rv.Type().Elem().Kind() != reflect.Uint8 {
		return nil, false
	}
	b := make([]byte, rv.Len())
	reflect.Copy(reflect.ValueOf(b), rv)
	return b, true
}

// GoValue converts a word to the Go value of primitive type t.
func GoValue(t abi.Type, w uint256.Int) (any, error) {
	w = Canonical(t, w)
	switch t.T {
	case abi.BoolTy:
		return w[0] == 1, nil
	case abi.AddressTy:
		return common.Address(w.Bytes20()), nil
	case abi.UintTy:
		return uintValue(t.Size, w), nil
	case abi.IntTy:
		return intValue(t.Size, w), nil
	case abi.FixedBytesTy:
		b := w.Bytes32()
		v := reflect.New(reflect.ArrayOf(t.Size, reflect.TypeFor[byte]())).Elem()
		reflect.Copy(v, reflect.ValueOf(b[:t.Size]))
		return v.Interface(), nil
	}
	return nil, fmt.Errorf("fuzz: %s is not a primitive type", t)
}

func uintValue(size int, w uint256.Int) any {
	switch size {
	case 8:
		return uint8(w[0])
	case 16:
		return uint16(w[0])
	case 32:
		return uint32(w[0])
	case 64:
		return w[0]
	}
	return w.ToBig()
}

func intValue(size int, w uint256.Int) any {
	switch size {
	case 8:
		return int8(w[0])
	case 16:
		return int16(w[0])
	case 32:
		return int32(w[0])
	case 64:
		return int64(w[0])
	}
	return signedBig(w)
}

// signedBig reads w as a two's-complement 256-bit integer.
func signedBig(w uint256.Int) *big.Int {
	if w.Sign() >= 0 {
		return w.ToBig()
	}
	var mag uint256.Int
	mag.Neg(&w)
	return new(big.Int).Neg(mag.ToBig())
}

// Strings renders each argument for people: decimal integers (signed for
// intN), checksummed addresses, true/false, 0x-hex for bytesN.
func (t Tuple) Strings(args abi.Arguments) []string {
	out := make([]string, len(t))
	for i := range t {
		if i >= len(args) {
			out[i] = t[i].Hex()
			continue
		}
		out[i] = formatWord(args[i].Type, t[i])
	}
	return out
}

// JSON is Strings as a JSON array.
func (t Tuple) JSON(args abi.Arguments) string {
	b, _ := json.Marshal(t.Strings(args))
	return string(b)
}

func formatWord(t abi.Type, w uint256.Int) string {
	switch t.T {
	case abi.BoolTy:
		return fmt.Sprint(w[0]&1 == 1)
	case abi.AddressTy:
		return common.Address(w.Bytes20()).Hex()
	case abi.IntTy:
		return signedBig(w).String()
	case abi.FixedBytesTy:
		b := w.Bytes32()
		return hexutil.Encode(b[:t.Size])
	}
	return w.Dec()
}
