package dcrgraph

import (
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"
)

// ErrDivisionByZero is returned (wrapped) when a guard divides by zero.
var ErrDivisionByZero = errors.New("division by zero")

// maxBits bounds intermediate integers, as Solidity bounds constant
// expressions, so `2**2**2**2**2` cannot exhaust memory.
const maxBits = 4096

var errNoState = errors.New("reads contract state outside a step")

// node is one element of a compiled guard. eval receives a nil State only
// when a constant is being folded, and constants never read state.
type node interface {
	eval(s State) (Value, error)
	write(b *strings.Builder)
}

type literalNode struct{ v Value }

func (n *literalNode) eval(State) (Value, error) { return n.v, nil }

// write parenthesises negative literals (from casts and type(T).min) so the
// text parses back to the same tree.
func (n *literalNode) write(b *strings.Builder) {
	if n.v.Kind() == KindInt && n.v.n.Sign() < 0 {
		b.WriteString("(-" + new(big.Int).Neg(n.v.n).String() + ")")
		return
	}
	b.WriteString(n.v.String())
}

type constNode struct {
	name string
	v    Value
}

func (n *constNode) eval(State) (Value, error) { return n.v, nil }
func (n *constNode) write(b *strings.Builder)  { b.WriteString(n.name) }

type varNode struct {
	name string
	call bool // written as a getter call x()
}

func (n *varNode) eval(s State) (Value, error) {
	if s == nil {
		return Value{}, errNoState
	}
	v, err := s.Var(n.name)
	if err != nil {
		return Value{}, fmt.Errorf("reading %s: %w", n.name, err)
	}
	return v, nil
}

func (n *varNode) write(b *strings.Builder) {
	b.WriteString(n.name)
	if n.call {
		b.WriteString("()")
	}
}

type mappingNode struct {
	name string
	key  node
}

func (n *mappingNode) eval(s State) (Value, error) {
	if s == nil {
		return Value{}, errNoState
	}
	key, err := n.key.eval(s)
	if err != nil {
		return Value{}, err
	}
	v, err := s.Mapping(n.name, key)
	if err != nil {
		return Value{}, fmt.Errorf("reading %s[%s]: %w", n.name, key, err)
	}
	return v, nil
}

func (n *mappingNode) write(b *strings.Builder) {
	b.WriteString(n.name)
	b.WriteByte('[')
	n.key.write(b)
	b.WriteByte(']')
}

type senderNode struct{}

func (senderNode) eval(s State) (Value, error) {
	if s == nil {
		return Value{}, errNoState
	}
	return s.Sender(), nil
}
func (senderNode) write(b *strings.Builder) { b.WriteString("msg.sender") }

type balanceNode struct{}

func (balanceNode) eval(s State) (Value, error) {
	if s == nil {
		return Value{}, errNoState
	}
	v, err := s.Balance()
	if err != nil {
		return Value{}, fmt.Errorf("reading address(this).balance: %w", err)
	}
	return v, nil
}
func (balanceNode) write(b *strings.Builder) { b.WriteString("address(this).balance") }

type thisNode struct{}

func (thisNode) eval(s State) (Value, error) {
	self, ok := s.(Self)
	if !ok {
		return Value{}, errors.New("address(this) needs a State that implements dcr.Self")
	}
	return self.This(), nil
}
func (thisNode) write(b *strings.Builder) { b.WriteString("this") }

// blockNode reads the block: block.timestamp (also `now`), or block.number.
type blockNode struct{ number bool }

func (n blockNode) eval(s State) (Value, error) {
	c, ok := s.(Chain)
	if !ok {
		return Value{}, fmt.Errorf("%s needs a State that implements dcr.Chain", n.name())
	}
	if n.number {
		return c.BlockNumber()
	}
	return c.Timestamp()
}

func (n blockNode) name() string {
	if n.number {
		return "block.number"
	}
	return "block.timestamp"
}

func (n blockNode) write(b *strings.Builder) { b.WriteString(n.name()) }

// castNode is address(x), payable(x) or uintN(x)/intN(x); integer casts
// truncate as Solidity does, so uint256(-1) is the maximum uint256.
type castNode struct {
	to string
	x  node
}

func (n *castNode) eval(s State) (Value, error) {
	v, err := n.x.eval(s)
	if err != nil {
		return Value{}, err
	}
	i, ok := v.asInt()
	if !ok {
		return Value{}, fmt.Errorf("cannot convert %s to %s", v.Kind(), n.to)
	}
	if n.to == "address" {
		a, ok := intToAddress(i)
		if !ok {
			return Value{}, fmt.Errorf("%s does not fit in an address", i)
		}
		return a, nil
	}
	bits, _ := intTypeBits(n.to)
	return IntValue(truncate(i, bits, strings.HasPrefix(n.to, "int"))), nil
}

func (n *castNode) write(b *strings.Builder) {
	b.WriteString(n.to)
	b.WriteByte('(')
	n.x.write(b)
	b.WriteByte(')')
}

type unaryNode struct {
	op string
	x  node
}

func (n *unaryNode) eval(s State) (Value, error) {
	v, err := n.x.eval(s)
	if err != nil {
		return Value{}, err
	}
	if n.op == "!" {
		b, ok := v.Bool()
		if !ok {
			return Value{}, fmt.Errorf("operator ! needs a bool, got %s", v.Kind())
		}
		return BoolValue(!b), nil
	}
	if v.Kind() != KindInt {
		return Value{}, fmt.Errorf("unary - needs an integer, got %s", v.Kind())
	}
	return Value{kind: KindInt, n: new(big.Int).Neg(v.n)}, nil
}

func (n *unaryNode) write(b *strings.Builder) {
	b.WriteString("(" + n.op)
	n.x.write(b)
	b.WriteByte(')')
}

type binaryNode struct {
	op   string
	l, r node
}

func (n *binaryNode) write(b *strings.Builder) {
	b.WriteByte('(')
	n.l.write(b)
	b.WriteString(" " + n.op + " ")
	n.r.write(b)
	b.WriteByte(')')
}

func (n *binaryNode) eval(s State) (Value, error) {
	l, err := n.l.eval(s)
	if err != nil {
		return Value{}, err
	}
	if n.op == "&&" || n.op == "||" {
		return n.logical(l, s)
	}
	r, err := n.r.eval(s)
	if err != nil {
		return Value{}, err
	}
	switch n.op {
	case "==", "!=":
		return equality(n.op, l, r)
	case "<", "<=", ">", ">=":
		return compare(n.op, l, r)
	}
	return arithmetic(n.op, l, r)
}

// logical short-circuits as Solidity does, so `d != 0 && x / d > 1` is
// safe when d is zero.
func (n *binaryNode) logical(l Value, s State) (Value, error) {
	lb, ok := l.Bool()
	if !ok {
		return Value{}, fmt.Errorf("operator %s needs bools, got %s", n.op, l.Kind())
	}
	if (n.op == "&&" && !lb) || (n.op == "||" && lb) {
		return l, nil
	}
	r, err := n.r.eval(s)
	if err != nil {
		return Value{}, err
	}
	if _, ok := r.Bool(); !ok {
		return Value{}, fmt.Errorf("operator %s needs bools, got %s", n.op, r.Kind())
	}
	return r, nil
}

func equality(op string, l, r Value) (Value, error) {
	var eq bool
	switch {
	case l.Kind() == KindInvalid || r.Kind() == KindInvalid:
		return Value{}, fmt.Errorf("cannot compare %s %s %s", l.Kind(), op, r.Kind())
	case l.Kind() == r.Kind():
		eq = l.Equal(r)
	case l.Kind() != KindBool && r.Kind() != KindBool:
		li, _ := l.asInt()
		ri, _ := r.asInt()
		eq = li.Cmp(ri) == 0
	default:
		return Value{}, fmt.Errorf("cannot compare %s %s %s", l.Kind(), op, r.Kind())
	}
	return BoolValue(eq == (op == "==")), nil
}

func compare(op string, l, r Value) (Value, error) {
	li, lok := l.asInt()
	ri, rok := r.asInt()
	if !lok || !rok {
		return Value{}, fmt.Errorf("cannot order %s %s %s", l.Kind(), op, r.Kind())
	}
	c := li.Cmp(ri)
	ok := map[string]bool{"<": c < 0, "<=": c <= 0, ">": c > 0, ">=": c >= 0}[op]
	return BoolValue(ok), nil
}

func arithmetic(op string, l, r Value) (Value, error) {
	if l.Kind() != KindInt || r.Kind() != KindInt {
		return Value{}, fmt.Errorf("operator %s needs integers, got %s and %s", op, l.Kind(), r.Kind())
	}
	x, y := l.n, r.n
	z := new(big.Int)
	switch op {
	case "+":
		z.Add(x, y)
	case "-":
		z.Sub(x, y)
	case "*":
		z.Mul(x, y)
	case "/", "%":
		if y.Sign() == 0 {
			return Value{}, ErrDivisionByZero
		}
		if op == "/" {
			z.Quo(x, y) // truncates toward zero, like Solidity
		} else {
			z.Rem(x, y)
		}
	case "**":
		return power(x, y)
	default:
		return Value{}, fmt.Errorf("operator %s is not supported", op)
	}
	return bounded(z)
}

func power(base, exp *big.Int) (Value, error) {
	if exp.Sign() < 0 {
		return Value{}, errors.New("negative exponent")
	}
	if base.CmpAbs(big.NewInt(1)) > 0 {
		if exp.Cmp(big.NewInt(maxBits)) > 0 || exp.Int64()*int64(base.BitLen()-1) > maxBits {
			return Value{}, fmt.Errorf("integer result exceeds %d bits", maxBits)
		}
	}
	return bounded(new(big.Int).Exp(base, exp, nil))
}

func bounded(z *big.Int) (Value, error) {
	if z.BitLen() > maxBits {
		return Value{}, fmt.Errorf("integer result exceeds %d bits", maxBits)
	}
	return Value{kind: KindInt, n: z}, nil
}

// intTypeBits recognises uint, int, uintN and intN (N a multiple of 8 up to 256).
func intTypeBits(name string) (int, bool) {
	digits := strings.TrimPrefix(strings.TrimPrefix(name, "u"), "int")
	if digits == name || !strings.HasPrefix(strings.TrimPrefix(name, "u"), "int") {
		return 0, false
	}
	if digits == "" {
		return 256, true
	}
	bits, err := strconv.Atoi(digits)
	if err != nil || bits < 8 || bits > 256 || bits%8 != 0 || digits[0] == '0' {
		return 0, false
	}
	return bits, true
}

// intRange returns the smallest and largest value of uintN or intN.
func intRange(signed bool, bits int) (lo, hi *big.Int) {
	one := big.NewInt(1)
	if !signed {
		return new(big.Int), new(big.Int).Sub(new(big.Int).Lsh(one, uint(bits)), one)
	}
	half := new(big.Int).Lsh(one, uint(bits-1))
	return new(big.Int).Neg(half), new(big.Int).Sub(half, one)
}

// truncate wraps n into uintN or intN two's complement.
func truncate(n *big.Int, bits int, signed bool) *big.Int {
	mod := new(big.Int).Lsh(big.NewInt(1), uint(bits))
	z := new(big.Int).Mod(n, mod) // Euclidean: always non-negative
	if signed && z.Bit(bits-1) == 1 {
		z.Sub(z, mod)
	}
	return z
}
