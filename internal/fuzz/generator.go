package fuzz

import (
	"fmt"
	"math/rand/v2"
	"reflect"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/holiman/uint256"
)

// maxDynamicLen bounds generated strings, bytes and dynamic arrays.
const maxDynamicLen = 8

// maxValueBits bounds generated msg.value (2^100 wei is ~1.3e12 ether): the
// harness funds the sender, and absurd values only test the top-up.
const maxValueBits = 100

// Generator produces ABI-typed values from a seed and a dictionary. The same
// seed and dictionary give the same sequence of values, whatever else runs
// in the process. A Generator is not safe for concurrent use.
type Generator struct {
	rng  *rand.Rand
	dict *Dictionary

	// hints are values the code compared inputs with at run time (AddHint),
	// a bounded pool kept apart from the static dictionary.
	hints    []uint256.Int
	hintSeen map[uint256.Int]bool
	hintNext int
	// recent holds hints known to be in hintSeen, one per slot of a fold of
	// their bits: most operands a call compares were offered by the calls
	// before it, and an array look is cheaper than the map's.
	recent [recentSlots]recentHint
}

// recentHint is one slot of Generator.recent.
type recentHint struct {
	w  uint256.Int
	ok bool
}

const recentSlots = 256

// recentSlot is w's slot in Generator.recent.
func recentSlot(w *uint256.Int) int {
	return int((w[0] ^ w[1] ^ w[2] ^ w[3]) * 0x9e3779b97f4a7c15 >> 56)
}

// maxHints bounds the hint pool; when full, new hints replace the oldest.
const maxHints = 1024

// NewGenerator returns a generator over dict (nil: an empty one).
func NewGenerator(seed uint64, dict *Dictionary) *Generator {
	if dict == nil {
		dict = NewDictionary()
	}
	return &Generator{rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), dict: dict}
}

// AddHint offers a value the program under test compared something with
// (an operand of LT, GT, SLT, SGT or EQ): mutations then try it, and its
// neighbours, in place of an argument, which solves comparisons against
// values computed at run time (another argument, a stored balance) that
// no static dictionary holds.
func (g *Generator) AddHint(w uint256.Int) {
	slot := &g.recent[recentSlot(&w)]
	if slot.ok && slot.w == w {
		return
	}
	if g.hintSeen == nil {
		g.hintSeen = map[uint256.Int]bool{}
	}
	*slot = recentHint{w, true}
	if g.hintSeen[w] {
		return
	}
	g.hintSeen[w] = true
	if len(g.hints) < maxHints {
		g.hints = append(g.hints, w)
		return
	}
	old := &g.hints[g.hintNext]
	delete(g.hintSeen, *old)
	if s := &g.recent[recentSlot(old)]; s.w == *old {
		s.ok = false
	}
	*old = w
	g.hintNext = (g.hintNext + 1) % maxHints
}

// Dictionary is the generator's dictionary.
func (g *Generator) Dictionary() *Dictionary { return g.dict }

// Intn returns a uniform int in [0, n) from the generator's stream (n > 0),
// so callers can make their own choices reproducibly.
func (g *Generator) Intn(n int) int { return g.rng.IntN(n) }

// Word returns a canonical word of primitive type t: a dictionary constant,
// a boundary of the type, or a random value whose bit length is itself
// uniform, so small numbers come up as often as huge ones.
func (g *Generator) Word(t abi.Type) uint256.Int {
	switch r := g.rng.IntN(100); {
	case t.T == abi.BoolTy:
		return Canonical(t, *uint256.NewInt(g.rng.Uint64()))
	case r < 30:
		if w, ok := g.dictWord(t); ok {
			return w
		}
	case r < 50:
		b := Boundaries(t)
		return b[g.rng.IntN(len(b))]
	}
	return g.randomWord(t)
}

// dictWord picks a dictionary entry that fits t: an address for addresses,
// a text (left-aligned) or constant for bytesN, a constant (negated now and
// then for signed types) for integers.
func (g *Generator) dictWord(t abi.Type) (uint256.Int, bool) {
	var w uint256.Int
	switch t.T {
	case abi.AddressTy:
		addrs := g.dict.Addresses()
		if len(addrs) == 0 {
			return w, false
		}
		w.SetBytes20(addrs[g.rng.IntN(len(addrs))].Bytes())
	case abi.FixedBytesTy:
		texts := g.dict.Texts()
		if len(texts) > 0 && g.rng.IntN(2) == 0 {
			var b [32]byte
			copy(b[:], texts[g.rng.IntN(len(texts))])
			w.SetBytes32(b[:])
			break
		}
		words := g.dict.Words()
		if len(words) == 0 {
			return w, false
		}
		w = words[g.rng.IntN(len(words))]
		w.Lsh(&w, uint(256-8*t.Size)) // a number right-aligned in the bytes
	default:
		words := g.dict.Words()
		if len(words) == 0 {
			return w, false
		}
		w = words[g.rng.IntN(len(words))]
		if t.T == abi.IntTy && g.rng.IntN(4) == 0 {
			w.Neg(&w)
		}
	}
	return Canonical(t, w), true
}

// randomWord draws a value of log-uniform magnitude; negative half the time
// for signed types.
func (g *Generator) randomWord(t abi.Type) uint256.Int {
	bits := typeBits(t)
	var w uint256.Int
	n := 1 + g.rng.IntN(bits)
	w = g.randomBits(n)
	switch t.T {
	case abi.IntTy:
		if g.rng.IntN(2) == 0 {
			w.Neg(&w)
		}
	case abi.FixedBytesTy:
		w.Lsh(&w, uint(256-bits))
		if g.rng.IntN(2) == 0 { // or fully random bytes
			w = g.randomBits(256)
		}
	}
	return Canonical(t, w)
}

// randomBits is a uniform value below 2^n.
func (g *Generator) randomBits(n int) uint256.Int {
	w := uint256.Int{g.rng.Uint64(), g.rng.Uint64(), g.rng.Uint64(), g.rng.Uint64()}
	return lowBits(w, uint(n))
}

// typeBits is the number of significant bits of a primitive type.
func typeBits(t abi.Type) int {
	switch t.T {
	case abi.BoolTy:
		return 1
	case abi.AddressTy:
		return 160
	case abi.FixedBytesTy:
		return 8 * t.Size
	}
	return t.Size
}

// Tuple returns a fresh argument tuple for inputs that are all Primitive.
func (g *Generator) Tuple(args abi.Arguments) Tuple {
	t := make(Tuple, len(args))
	for i, a := range args {
		t[i] = g.Word(a.Type)
	}
	return t
}

// Wei returns a msg.value for a payable call: zero half the time, else a
// dictionary constant, a round amount of ether or a random amount below
// 2^100 wei.
func (g *Generator) Wei() uint256.Int {
	var w uint256.Int
	switch r := g.rng.IntN(100); {
	case r < 50:
		return w
	case r < 65:
		if words := g.dict.Words(); len(words) > 0 {
			w = words[g.rng.IntN(len(words))]
			if w.BitLen() <= maxValueBits {
				return w
			}
		}
	case r < 85:
		w.Exp(uint256.NewInt(10), uint256.NewInt(uint64(g.rng.IntN(22)))) // 1 wei .. 1000 ether
		return w
	}
	return g.randomBits(1 + g.rng.IntN(maxValueBits))
}

// Mutate returns a mutant of t (t itself is not changed): one to three
// stacked mutations, each on one argument: a bit flip, an arithmetic step of
// up to ±35, a boundary value, a dictionary constant, a hint (AddHint) or
// its neighbour, a doubling or halving, a fresh value, or another argument's
// value plus or minus a little (comparisons between arguments).
func (g *Generator) Mutate(t Tuple, args abi.Arguments) Tuple {
	out := t.Clone()
	if len(out) == 0 {
		return out
	}
	for range 1 + g.rng.IntN(3) {
		i := g.rng.IntN(len(out))
		w := out[i]
		if j := g.rng.IntN(len(out)); j != i && g.rng.IntN(8) == 0 {
			w = g.nudge(out[j])
		} else {
			w = g.mutateWord(args[i].Type, w)
		}
		out[i] = Canonical(args[i].Type, w)
	}
	return out
}

// nudge is w, w+1 or w-1.
func (g *Generator) nudge(w uint256.Int) uint256.Int {
	switch g.rng.IntN(3) {
	case 1:
		w.AddUint64(&w, 1)
	case 2:
		w.SubUint64(&w, 1)
	}
	return w
}

func (g *Generator) mutateWord(t abi.Type, w uint256.Int) uint256.Int {
	var step uint256.Int
	switch g.rng.IntN(8) {
	case 7:
		if len(g.hints) > 0 {
			return g.nudge(g.hints[g.rng.IntN(len(g.hints))])
		}
	case 0: // bit flip within the type's significant bits
		bit := g.rng.IntN(typeBits(t))
		if t.T == abi.FixedBytesTy {
			bit += 256 - typeBits(t)
		}
		step.SetOne().Lsh(&step, uint(bit))
		return *w.Xor(&w, &step)
	case 1: // arithmetic step
		step.SetUint64(uint64(1 + g.rng.IntN(35)))
		if t.T == abi.FixedBytesTy {
			step.Lsh(&step, uint(256-typeBits(t)))
		}
		if g.rng.IntN(2) == 0 {
			return *w.Add(&w, &step)
		}
		return *w.Sub(&w, &step)
	case 2:
		b := Boundaries(t)
		return b[g.rng.IntN(len(b))]
	case 3:
		if d, ok := g.dictWord(t); ok {
			return d
		}
	case 4:
		if t.T == abi.IntTy {
			return *w.SRsh(&w, 1)
		}
		return *w.Rsh(&w, 1)
	case 5:
		return *w.Lsh(&w, 1)
	}
	return g.Word(t)
}

// Splice crosses two tuples of the same function: a's arguments up to a
// random point, b's after it.
func (g *Generator) Splice(a, b Tuple) Tuple {
	out := a.Clone()
	if len(out) == 0 || len(b) != len(a) {
		return out
	}
	cut := g.rng.IntN(len(out) + 1)
	copy(out[cut:], b[cut:])
	return out
}

// Value returns a Go value of any Supported type t, as go-ethereum's abi
// package packs it: primitives as in GoValue, string, []byte, slices and
// arrays of their element's Go type, tuples as the struct abi expects.
// Dynamic lengths are at most 8.
func (g *Generator) Value(t abi.Type) (any, error) {
	if !Supported(t) {
		return nil, fmt.Errorf("fuzz: cannot generate values of type %s", t)
	}
	v, err := g.reflectValue(t)
	if err != nil {
		return nil, err
	}
	return v.Interface(), nil
}

func (g *Generator) reflectValue(t abi.Type) (reflect.Value, error) {
	switch t.T {
	case abi.StringTy:
		return reflect.ValueOf(g.text()), nil
	case abi.BytesTy:
		return reflect.ValueOf([]byte(g.text())), nil
	case abi.FunctionTy:
		var f [24]byte
		w := g.Word(abi.Type{T: abi.AddressTy, Size: 20})
		b := w.Bytes20()
		copy(f[:], b[:])
		return reflect.ValueOf(f), nil
	case abi.SliceTy, abi.ArrayTy:
		return g.sequence(t)
	case abi.TupleTy:
		return g.tuple(t)
	}
	v, err := GoValue(t, g.Word(t))
	return reflect.ValueOf(v), err
}

// text is a dictionary string half the time, else random printable bytes.
func (g *Generator) text() string {
	if texts := g.dict.Texts(); len(texts) > 0 && g.rng.IntN(2) == 0 {
		return texts[g.rng.IntN(len(texts))]
	}
	b := make([]byte, g.rng.IntN(maxDynamicLen*4+1))
	for i := range b {
		b[i] = byte(0x20 + g.rng.IntN(0x5f))
	}
	return string(b)
}

func (g *Generator) sequence(t abi.Type) (reflect.Value, error) {
	n := t.Size
	var v reflect.Value
	if t.T == abi.SliceTy {
		n = g.rng.IntN(maxDynamicLen + 1)
		v = reflect.MakeSlice(t.GetType(), n, n)
	} else {
		v = reflect.New(t.GetType()).Elem()
	}
	for i := range n {
		e, err := g.reflectValue(*t.Elem)
		if err != nil {
			return v, err
		}
		v.Index(i).Set(e)
	}
	return v, nil
}

func (g *Generator) tuple(t abi.Type) (reflect.Value, error) {
	v := reflect.New(t.TupleType).Elem()
	for i, et := range t.TupleElems {
		e, err := g.reflectValue(*et)
		if err != nil {
			return v, err
		}
		v.Field(i).Set(e)
	}
	return v, nil
}

// Values returns one Go value per argument.
func (g *Generator) Values(args abi.Arguments) ([]any, error) {
	out := make([]any, len(args))
	for i, a := range args {
		v, err := g.Value(a.Type)
		if err != nil {
			return nil, fmt.Errorf("argument %d (%s): %w", i, a.Name, err)
		}
		out[i] = v
	}
	return out, nil
}

// CallData returns encoded call data for m with fresh arguments, and the
// arguments. It works for any Supported inputs, primitive or not.
func (g *Generator) CallData(m abi.Method) ([]byte, []any, error) {
	vals, err := g.Values(m.Inputs)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", m.Sig, err)
	}
	packed, err := m.Inputs.Pack(vals...)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", m.Sig, err)
	}
	return append(append([]byte(nil), m.ID...), packed...), vals, nil
}
