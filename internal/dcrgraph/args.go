package dcrgraph

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"
)

// Arg is one element of an event's proposed argument tuple.
type Arg struct {
	Type  string   `json:"type"`  // ABI type, e.g. "uint256", "address", "bytes32", "uint8[]"
	Value ArgValue `json:"value"` // arrays and tuples are written as a JSON string
}

// ArgKind is the JSON type of an argument value.
type ArgKind uint8

const (
	ArgInvalid ArgKind = iota // null, array or object: reported by Validate
	ArgString
	ArgNumber
	ArgBool
)

// ArgValue is a JSON string, number or bool. Numbers are kept as their
// literal text so uint256 values survive without float rounding.
type ArgValue struct {
	Kind ArgKind
	Text string // the string; the number as written; "true"/"false"; raw JSON when invalid
}

// StringArg, NumberArg and BoolArg build argument values.
func StringArg(s string) ArgValue   { return ArgValue{ArgString, s} }
func NumberArg(lit string) ArgValue { return ArgValue{ArgNumber, lit} }
func BoolArg(b bool) ArgValue       { return ArgValue{ArgBool, strconv.FormatBool(b)} }

// UnmarshalJSON accepts any JSON value; non-scalars become ArgInvalid so
// Validate can list them with the graph's other problems.
func (v *ArgValue) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	switch {
	case len(data) > 0 && data[0] == '"':
		v.Kind = ArgString
		return json.Unmarshal(data, &v.Text)
	case string(data) == "true" || string(data) == "false":
		*v = ArgValue{ArgBool, string(data)}
	case len(data) > 0 && (data[0] == '-' || isDigit(data[0])):
		*v = ArgValue{ArgNumber, string(data)}
	default:
		var buf bytes.Buffer
		if err := json.Compact(&buf, data); err != nil {
			return err
		}
		*v = ArgValue{ArgInvalid, buf.String()}
	}
	return nil
}

// MarshalJSON writes the value back as the JSON type it was read as.
func (v ArgValue) MarshalJSON() ([]byte, error) {
	switch v.Kind {
	case ArgString:
		return json.Marshal(v.Text)
	case ArgNumber:
		return json.Marshal(json.Number(v.Text))
	case ArgBool:
		return []byte(v.Text), nil
	}
	if json.Valid([]byte(v.Text)) {
		return []byte(v.Text), nil
	}
	return nil, fmt.Errorf("invalid argument value %q", v.Text)
}

// Integer reads a number, or a string holding an integer ("0xff", "1e18").
func (v ArgValue) Integer() (*big.Int, error) {
	if v.Kind != ArgNumber && v.Kind != ArgString {
		return nil, fmt.Errorf("%s is not an integer", v.Text)
	}
	return parseIntegerText(v.Text)
}

// check reports an ABI type that does not parse or a value that does not
// fit it.
func (a Arg) check() error {
	base, dims, err := splitArrayType(a.Type)
	if err != nil {
		return err
	}
	if err := checkBaseType(base); err != nil {
		return err
	}
	if a.Value.Kind == ArgInvalid {
		return fmt.Errorf("value %s must be a JSON string, number or bool (arrays and tuples as a string)", a.Value.Text)
	}
	if dims || strings.HasPrefix(base, "(") || base == "tuple" {
		return expectString(a)
	}
	return checkElementaryValue(base, a)
}

// splitArrayType strips trailing [N] / [] dimensions.
func splitArrayType(t string) (base string, array bool, err error) {
	base = strings.TrimSpace(t)
	for strings.HasSuffix(base, "]") {
		open := strings.LastIndexByte(base, '[')
		if open < 0 || strings.Trim(base[open+1:len(base)-1], "0123456789") != "" {
			return "", false, fmt.Errorf("type %q: bad array dimension", t)
		}
		base, array = base[:open], true
	}
	if base == "" {
		return "", false, fmt.Errorf("type %q is empty", t)
	}
	return base, array, nil
}

func checkBaseType(base string) error {
	if strings.HasPrefix(base, "(") && strings.HasSuffix(base, ")") {
		return checkTupleComponents(base[1 : len(base)-1])
	}
	switch base {
	case "address", "bool", "string", "bytes", "function", "tuple", "fixed", "ufixed":
		return nil
	}
	if _, ok := intTypeBits(base); ok {
		return nil
	}
	if n, err := strconv.Atoi(strings.TrimPrefix(base, "bytes")); err == nil && strings.HasPrefix(base, "bytes") && n >= 1 && n <= 32 {
		return nil
	}
	if m, n, ok := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(base, "u"), "fixed"), "x"); ok && isNumber(m) && isNumber(n) {
		return nil
	}
	return fmt.Errorf("%q is not an ABI type", base)
}

// checkTupleComponents validates "uint256,(address,bool)[]" component lists.
func checkTupleComponents(list string) error {
	depth, start := 0, 0
	for i := 0; i <= len(list); i++ {
		if i < len(list) {
			switch list[i] {
			case '(':
				depth++
				continue
			case ')':
				depth--
				continue
			case ',':
				if depth > 0 {
					continue
				}
			default:
				continue
			}
		}
		if err := checkComponent(list[start:i]); err != nil {
			return fmt.Errorf("tuple component: %w", err)
		}
		start = i + 1
	}
	return nil
}

func checkComponent(t string) error {
	base, _, err := splitArrayType(t)
	if err != nil {
		return err
	}
	return checkBaseType(base)
}

func isNumber(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil && s != "" && s[0] != '-' && s[0] != '+'
}

func checkElementaryValue(base string, a Arg) error {
	v := a.Value
	switch {
	case base == "bool":
		if v.Kind == ArgBool || (v.Kind == ArgString && (v.Text == "true" || v.Text == "false")) {
			return nil
		}
		return fmt.Errorf("bool value %q is not true or false", v.Text)
	case base == "address":
		return checkHexString(a, 20, true)
	case base == "bytes":
		return checkHexString(a, -1, false)
	case strings.HasPrefix(base, "bytes"):
		n, _ := strconv.Atoi(strings.TrimPrefix(base, "bytes"))
		return checkHexString(a, n, false)
	}
	if bits, ok := intTypeBits(base); ok {
		return checkIntValue(base, bits, v)
	}
	return expectString(a) // string, function, fixed: no finer check
}

func expectString(a Arg) error {
	if a.Value.Kind != ArgString {
		return fmt.Errorf("%s value must be a JSON string, got %s", a.Type, a.Value.Text)
	}
	return nil
}

func checkIntValue(base string, bits int, v ArgValue) error {
	n, err := v.Integer()
	if err != nil {
		return fmt.Errorf("%s value: %w", base, err)
	}
	lo, hi := intRange(strings.HasPrefix(base, "int"), bits)
	if n.Cmp(lo) < 0 || n.Cmp(hi) > 0 {
		return fmt.Errorf("%s value %s is out of range", base, n)
	}
	return nil
}

// checkHexString wants 0x-prefixed hex of size bytes (exact when exact,
// at most size otherwise; size < 0: any whole number of bytes).
func checkHexString(a Arg, size int, exact bool) error {
	s := a.Value.Text
	if a.Value.Kind != ArgString || !strings.HasPrefix(s, "0x") {
		return fmt.Errorf("%s value %q must be a 0x-prefixed hex string", a.Type, s)
	}
	b, err := hex.DecodeString(s[2:])
	switch {
	case err != nil:
		err = errors.New("bad hex")
	case exact && len(b) != size:
		err = fmt.Errorf("%d bytes, want %d", len(b), size)
	case size >= 0 && len(b) > size:
		err = fmt.Errorf("%d bytes, want at most %d", len(b), size)
	}
	if err != nil {
		return fmt.Errorf("%s value %q: %w", a.Type, s, err)
	}
	return nil
}
