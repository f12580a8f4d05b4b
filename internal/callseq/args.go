package callseq

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"reflect"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	"github.com/solbehave/solbehave/internal/dcrextract"
	"github.com/solbehave/solbehave/internal/dcrgraph"
	"github.com/solbehave/solbehave/internal/fuzz"
)

// methodFor finds the ABI function an event calls: same name and arity,
// the argument types deciding between overloads. It returns nil for an
// event of the fallback or receive function.
func methodFor(a abi.ABI, ev dcrgraph.Event) (*abi.Method, error) {
	if ev.Function == "" || ev.Function == "fallback" || ev.Function == "receive" {
		return nil, nil
	}
	types := make([]string, len(ev.Args))
	for i, arg := range ev.Args {
		types[i] = strings.ReplaceAll(arg.Type, " ", "")
	}
	if m, _ := dcrextract.MethodFor(&a, ev.Function, types); m != nil {
		return m, nil
	}
	return nil, fmt.Errorf("the ABI has no function %s", ev.Function)
}

// encodeCall is the call data of m with the event's proposed arguments.
func encodeCall(m *abi.Method, args []dcrgraph.Arg) ([]byte, error) {
	if len(args) != len(m.Inputs) {
		return nil, fmt.Errorf("%s takes %d arguments, the event proposes %d", m.Sig, len(m.Inputs), len(args))
	}
	vals := make([]any, len(args))
	for i, a := range args {
		v, err := goValue(m.Inputs[i].Type, jsonOf(a.Value))
		if err != nil {
			return nil, fmt.Errorf("%s argument %d: %w", m.Sig, i, err)
		}
		vals[i] = v.Interface()
	}
	packed, err := m.Inputs.Pack(vals...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", m.Sig, err)
	}
	return append(append([]byte(nil), m.ID...), packed...), nil
}

// jsonOf turns an argument value into what a JSON decoder would give.
func jsonOf(v dcrgraph.ArgValue) any {
	switch v.Kind {
	case dcrgraph.ArgNumber:
		return json.Number(v.Text)
	case dcrgraph.ArgBool:
		return v.Text == "true"
	}
	return v.Text
}

// goValue converts a JSON-shaped value to the Go value go-ethereum packs
// for t. Arrays and tuples may come as a JSON string holding the list.
func goValue(t abi.Type, x any) (reflect.Value, error) {
	switch t.T {
	case abi.IntTy, abi.UintTy:
		return intValue(t, x)
	case abi.BoolTy:
		return boolValue(x)
	case abi.AddressTy:
		s, ok := x.(string)
		if !ok || !common.IsHexAddress(s) {
			return reflect.Value{}, fmt.Errorf("%v is not an address", x)
		}
		return reflect.ValueOf(common.HexToAddress(s)), nil
	case abi.FixedBytesTy:
		return fixedBytesValue(t, x)
	case abi.BytesTy:
		b, err := hexBytes(x)
		return reflect.ValueOf(b), err
	case abi.StringTy:
		if s, ok := x.(string); ok {
			return reflect.ValueOf(s), nil
		}
		return reflect.ValueOf(fmt.Sprint(x)), nil
	case abi.SliceTy, abi.ArrayTy:
		return listValue(t, x)
	case abi.TupleTy:
		return tupleValue(t, x)
	}
	return reflect.Value{}, fmt.Errorf("arguments of type %s are not supported", t)
}

func intValue(t abi.Type, x any) (reflect.Value, error) {
	var av dcrgraph.ArgValue
	switch v := x.(type) {
	case json.Number:
		av = dcrgraph.NumberArg(string(v))
	case string:
		av = dcrgraph.StringArg(v)
	default:
		return reflect.Value{}, fmt.Errorf("%v is not an integer", x)
	}
	n, err := av.Integer()
	if err != nil {
		return reflect.Value{}, err
	}
	lo, hi := new(big.Int), new(big.Int).Lsh(big.NewInt(1), uint(t.Size))
	if t.T == abi.IntTy {
		hi.Rsh(hi, 1)
		lo.Neg(hi)
	}
	if n.Cmp(lo) < 0 || n.Cmp(hi) >= 0 {
		return reflect.Value{}, fmt.Errorf("%s is out of range for %s", n, t)
	}
	var w uint256.Int
	w.SetFromBig(n) // two's complement for negatives
	v, err := fuzz.GoValue(t, w)
	return reflect.ValueOf(v), err
}

func boolValue(x any) (reflect.Value, error) {
	switch v := x.(type) {
	case bool:
		return reflect.ValueOf(v), nil
	case string:
		if v == "true" || v == "false" {
			return reflect.ValueOf(v == "true"), nil
		}
	}
	return reflect.Value{}, fmt.Errorf("%v is not a bool", x)
}

func hexBytes(x any) ([]byte, error) {
	s, ok := x.(string)
	if !ok || !strings.HasPrefix(s, "0x") {
		return nil, fmt.Errorf("%v is not 0x-prefixed hex", x)
	}
	b, err := hex.DecodeString(s[2:])
	if err != nil {
		return nil, fmt.Errorf("%q: bad hex", s)
	}
	return b, nil
}

func fixedBytesValue(t abi.Type, x any) (reflect.Value, error) {
	b, err := hexBytes(x)
	if err != nil {
		return reflect.Value{}, err
	}
	if len(b) > t.Size {
		return reflect.Value{}, fmt.Errorf("%d bytes do not fit %s", len(b), t)
	}
	v := reflect.New(reflect.ArrayOf(t.Size, reflect.TypeFor[byte]())).Elem()
	reflect.Copy(v, reflect.ValueOf(b))
	return v, nil
}

// decodeList reads an array or tuple given as a JSON string.
func decodeList(x any) ([]any, error) {
	switch v := x.(type) {
	case []any:
		return v, nil
	case string:
		dec := json.NewDecoder(strings.NewReader(v))
		dec.UseNumber()
		var list []any
		if err := dec.Decode(&list); err != nil {
			return nil, fmt.Errorf("%q is not a JSON list: %v", v, err)
		}
		return list, nil
	}
	return nil, fmt.Errorf("%v is not a list", x)
}

func listValue(t abi.Type, x any) (reflect.Value, error) {
	list, err := decodeList(x)
	if err != nil {
		return reflect.Value{}, err
	}
	var v reflect.Value
	if t.T == abi.SliceTy {
		v = reflect.MakeSlice(t.GetType(), len(list), len(list))
	} else {
		if len(list) != t.Size {
			return reflect.Value{}, fmt.Errorf("%s needs %d elements, got %d", t, t.Size, len(list))
		}
		v = reflect.New(t.GetType()).Elem()
	}
	for i, e := range list {
		ev, err := goValue(*t.Elem, e)
		if err != nil {
			return reflect.Value{}, fmt.Errorf("element %d: %w", i, err)
		}
		v.Index(i).Set(ev)
	}
	return v, nil
}

func tupleValue(t abi.Type, x any) (reflect.Value, error) {
	list, err := decodeList(x)
	if err != nil {
		return reflect.Value{}, err
	}
	if len(list) != len(t.TupleElems) {
		return reflect.Value{}, fmt.Errorf("%s has %d components, got %d", t, len(t.TupleElems), len(list))
	}
	v := reflect.New(t.TupleType).Elem()
	for i, et := range t.TupleElems {
		ev, err := goValue(*et, list[i])
		if err != nil {
			return reflect.Value{}, fmt.Errorf("component %d: %w", i, err)
		}
		v.Field(i).Set(ev)
	}
	return v, nil
}

// formatArgs renders a call's arguments as a JSON list of strings, for
// people; data that does not decode is shown as hex.
func formatArgs(m *abi.Method, data []byte) string {
	if m == nil || len(data) < 4 {
		return "[]"
	}
	vals, err := m.Inputs.Unpack(data[4:])
	if err != nil {
		return fmt.Sprintf("[%q]", "0x"+hex.EncodeToString(data[4:]))
	}
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = formatValue(m.Inputs[i].Type, v)
	}
	b, _ := json.Marshal(parts)
	return string(b)
}

func formatValue(t abi.Type, v any) string {
	rv := reflect.ValueOf(v)
	switch t.T {
	case abi.AddressTy:
		if a, ok := v.(common.Address); ok {
			return strings.ToLower(a.Hex())
		}
	case abi.BytesTy, abi.FixedBytesTy:
		b := make([]byte, rv.Len())
		reflect.Copy(reflect.ValueOf(b), rv)
		return "0x" + hex.EncodeToString(b)
	case abi.SliceTy, abi.ArrayTy:
		parts := make([]string, rv.Len())
		for i := range parts {
			parts[i] = formatValue(*t.Elem, rv.Index(i).Interface())
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	return fmt.Sprint(v)
}

// sameCall reports two calls with the same data and value.
func sameCall(a, b []byte, va, vb *big.Int) bool {
	return bytes.Equal(a, b) && bigOrZero(va).Cmp(bigOrZero(vb)) == 0
}

func bigOrZero(v *big.Int) *big.Int {
	if v == nil {
		return new(big.Int)
	}
	return v
}
