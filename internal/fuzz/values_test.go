package fuzz

import (
	"bytes"
	"math/big"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"
)

func mustType(t *testing.T, name string, components ...abi.ArgumentMarshaling) abi.Type {
	t.Helper()
	typ, err := abi.NewType(name, "", components)
	if err != nil {
		t.Fatal(err)
	}
	return typ
}

func hexWord(hex string) uint256.Int { return *uint256.MustFromHex(hex) }

func TestCanonical(t *testing.T) {
	ones := hexWord("0x" + strings.Repeat("f", 64))
	cases := []struct {
		typ  string
		in   uint256.Int
		want string
	}{
		{"uint8", hexWord("0x1ff"), "0xff"},
		{"uint256", ones, ones.Hex()},
		{"int8", hexWord("0x80"), ones.Hex()[:len(ones.Hex())-2] + "80"}, // -128
		{"int8", hexWord("0x17f"), "0x7f"},
		{"int16", hexWord("0xffff"), ones.Hex()}, // -1
		{"address", ones, "0x" + strings.Repeat("f", 40)},
		{"bool", hexWord("0x3"), "0x1"},
		{"bool", hexWord("0x2"), "0x0"},
		{"bytes2", ones, "0x" + "ffff" + strings.Repeat("0", 60)},
	}
	for _, c := range cases {
		got := Canonical(mustType(t, c.typ), c.in)
		if got.Hex() != c.want {
			t.Errorf("Canonical(%s, %s) = %s, want %s", c.typ, c.in.Hex(), got.Hex(), c.want)
		}
	}
}

func TestBoundaries(t *testing.T) {
	dec := func(typ string) []string {
		var out []string
		for _, w := range Boundaries(mustType(t, typ)) {
			out = append(out, formatWord(mustType(t, typ), w))
		}
		return out
	}
	if got, want := dec("uint8"), []string{"0", "1", "2", "255", "254", "127", "128"}; !slices.Equal(got, want) {
		t.Errorf("uint8 boundaries %v, want %v", got, want)
	}
	if got, want := dec("int8"), []string{"0", "1", "-1", "2", "-128", "-127", "127", "126"}; !slices.Equal(got, want) {
		t.Errorf("int8 boundaries %v, want %v", got, want)
	}
	if got := dec("bool"); !slices.Equal(got, []string{"false", "true"}) {
		t.Errorf("bool boundaries %v", got)
	}
	for _, typ := range []string{"uint256", "int256", "address", "bytes32", "bytes1", "uint24", "int40"} {
		for _, w := range Boundaries(mustType(t, typ)) {
			if Canonical(mustType(t, typ), w) != w {
				t.Errorf("%s boundary %s is not canonical", typ, w.Hex())
			}
		}
	}
}

func TestFuzzable(t *testing.T) {
	const abiJSON = `[
	 {"type":"function","name":"set","stateMutability":"nonpayable","inputs":[{"name":"a","type":"uint24"},{"name":"b","type":"address"},{"name":"c","type":"bytes7"},{"name":"d","type":"int8"},{"name":"e","type":"bool"}],"outputs":[]},
	 {"type":"function","name":"pay","stateMutability":"payable","inputs":[],"outputs":[]},
	 {"type":"function","name":"get","stateMutability":"view","inputs":[{"name":"a","type":"uint256"}],"outputs":[{"name":"","type":"uint256"}]},
	 {"type":"function","name":"old","constant":true,"inputs":[],"outputs":[]},
	 {"type":"function","name":"name","stateMutability":"nonpayable","inputs":[{"name":"s","type":"string"}],"outputs":[]},
	 {"type":"function","name":"batch","stateMutability":"nonpayable","inputs":[{"name":"xs","type":"uint256[]"}],"outputs":[]},
	 {"type":"function","name":"raw","stateMutability":"nonpayable","inputs":[{"name":"b","type":"bytes"}],"outputs":[]},
	 {"type":"fallback","stateMutability":"payable"}
	]`
	parsed, err := abi.JSON(strings.NewReader(abiJSON))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range FuzzableMethods(parsed) {
		names = append(names, m.Name)
	}
	if want := []string{"pay", "set"}; !slices.Equal(names, want) {
		t.Errorf("fuzzable %v, want %v", names, want)
	}
}

// TestTupleEncodingMatchesABI: the word-level call data is byte for byte
// what go-ethereum's encoder makes of the same values, and reads back.
func TestTupleEncodingMatchesABI(t *testing.T) {
	args := abi.Arguments{}
	for _, typ := range []string{"uint8", "uint24", "uint256", "int8", "int40", "int256", "address", "bool", "bytes1", "bytes7", "bytes32"} {
		args = append(args, abi.Argument{Name: typ, Type: mustType(t, typ)})
	}
	m := abi.NewMethod("f", "f", abi.Function, "nonpayable", false, false, args, nil)
	g := NewGenerator(1, nil)
	for range 500 {
		tup := g.Tuple(args)
		vals, err := tup.Values(args)
		if err != nil {
			t.Fatal(err)
		}
		packed, err := args.Pack(vals...)
		if err != nil {
			t.Fatalf("pack %v: %v", tup.Strings(args), err)
		}
		data := tup.CallData(m)
		if !bytes.Equal(data[:4], m.ID) || !bytes.Equal(data[4:], packed) {
			t.Fatalf("call data differs from abi.Pack for %v", tup.Strings(args))
		}
		back, err := TupleFromCallData(args, data)
		if err != nil || !slices.Equal(back, tup) {
			t.Fatalf("round trip: %v %v", back, err)
		}
		unpacked, err := args.Unpack(data[4:])
		if err != nil || !reflect.DeepEqual(unpacked, vals) {
			t.Fatalf("unpack: %v vs %v (%v)", unpacked, vals, err)
		}
	}
}

// TestValueCoversSupportedTypes: Value makes packable values of composite
// and dynamic types too (for the vuln fuzzer and O3's argument fallback).
func TestValueCoversSupportedTypes(t *testing.T) {
	types := []abi.Type{
		mustType(t, "string"), mustType(t, "bytes"), mustType(t, "uint256[]"), mustType(t, "address[3]"),
		mustType(t, "bytes4[][2]"), mustType(t, "function"),
		mustType(t, "tuple", abi.ArgumentMarshaling{Name: "who", Type: "address"}, abi.ArgumentMarshaling{Name: "amounts", Type: "uint128[]"}),
	}
	g := NewGenerator(3, nil)
	for _, typ := range types {
		if !Supported(typ) || Primitive(typ) {
			t.Errorf("%s: Supported=%v Primitive=%v", typ, Supported(typ), Primitive(typ))
		}
		args := abi.Arguments{{Type: typ}}
		for range 50 {
			v, err := g.Value(typ)
			if err != nil {
				t.Fatalf("%s: %v", typ, err)
			}
			if _, err := args.Pack(v); err != nil {
				t.Fatalf("%s: pack %#v: %v", typ, v, err)
			}
		}
	}
	m := abi.NewMethod("g", "g", abi.Function, "nonpayable", false, false, abi.Arguments{{Name: "s", Type: types[0]}, {Name: "n", Type: mustType(t, "uint8")}}, nil)
	data, vals, err := g.CallData(m)
	if err != nil || len(vals) != 2 || !bytes.Equal(data[:4], m.ID) {
		t.Fatalf("CallData: %x %v %v", data, vals, err)
	}
	if _, err := g.Value(abi.Type{T: abi.FixedPointTy}); err == nil {
		t.Error("a fixed-point value was generated")
	}
}

func TestGeneratorDeterministic(t *testing.T) {
	args := abi.Arguments{{Type: mustType(t, "uint256")}, {Type: mustType(t, "address")}, {Type: mustType(t, "int16")}}
	dict := NewDictionary()
	dict.AddWord(*uint256.NewInt(12345))
	dict.AddAddress(common.HexToAddress("0xabc"))
	draw := func(seed uint64) []Tuple {
		g := NewGenerator(seed, dict)
		var out []Tuple
		for range 100 {
			tup := g.Tuple(args)
			out = append(out, tup, g.Mutate(tup, args), g.Splice(tup, g.Tuple(args)))
			g.AddHint(*uint256.NewInt(uint64(len(out))))
		}
		return out
	}
	a, b, c := draw(9), draw(9), draw(10)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("the same seed drew different values")
	}
	if reflect.DeepEqual(a, c) {
		t.Fatal("different seeds drew the same values")
	}
	var sawDict, sawSmall bool
	for _, tup := range a {
		sawDict = sawDict || tup[0] == *uint256.NewInt(12345) || common.Address(tup[1].Bytes20()) == common.HexToAddress("0xabc")
		sawSmall = sawSmall || tup[0].LtUint64(1000)
		if Canonical(args[2].Type, tup[2]) != tup[2] || Canonical(args[1].Type, tup[1]) != tup[1] {
			t.Fatalf("non-canonical value in %v", tup.Strings(args))
		}
	}
	if !sawDict || !sawSmall {
		t.Errorf("dictionary values seen: %v, small values seen: %v", sawDict, sawSmall)
	}
}

func TestDictionaryMining(t *testing.T) {
	d := NewDictionary()
	d.AddSource(`// 999 in a comment
	/* 888 too */
	contract C {
	    uint256 constant MIN = 10 finney;   // 10^16
	    uint8 x = 0x2A; uint y = 1_000; uint z = 2e3; uint w = 1.5 ether; uint q = 3 days;
	    string s = "hi \"there\""; bytes4 b = 'GFT';
	    uint256 u256 = 0; // the 256 of uint256 is no literal
	}`)
	var got []string
	for _, w := range d.Words() {
		got = append(got, w.Dec())
	}
	want := []string{"10000000000000000", "42", "1000", "2000", "1500000000000000000", "259200", "0"}
	if !slices.Equal(got, want) {
		t.Errorf("source words %v, want %v", got, want)
	}
	if texts := d.Texts(); !slices.Equal(texts, []string{`hi "there"`, "GFT"}) {
		t.Errorf("texts %q", texts)
	}
	code := []byte{0x60, 0x2a, 0x73} // PUSH1 0x2a, PUSH20 <20 bytes>
	code = append(code, common.HexToAddress("0x1234").Bytes()...)
	code = append(code, 0x5b, 0x63, 0x01, 0x02) // JUMPDEST, PUSH4 cut short by the end
	d = NewDictionary()
	d.AddBytecode(code)
	got = nil
	for _, w := range d.Words() {
		got = append(got, w.Hex())
	}
	if want := []string{"0x2a", "0x1234", "0x102"}; !slices.Equal(got, want) {
		t.Errorf("bytecode words %v, want %v", got, want)
	}
	if addrs := d.Addresses(); len(addrs) != 1 || addrs[0] != common.HexToAddress("0x1234") {
		t.Errorf("bytecode addresses %v", addrs)
	}
	d.AddWords(append(common.LeftPadBytes(big.NewInt(7).Bytes(), 32), 1, 2))
	if n := len(d.Words()); n != 4 {
		t.Errorf("AddWords: %d words, want 4 (a short tail is ignored)", n)
	}
}

// TestHintPoolIsARing: the hint pool keeps the last maxHints distinct
// values offered, in offering order, however often each was offered again
// (the recent-hint slots only spare map looks, they never keep a value the
// pool dropped).
func TestHintPoolIsARing(t *testing.T) {
	g := NewGenerator(1, nil)
	rng := rand.New(rand.NewPCG(3, 4))
	var want []uint256.Int
	seen := map[uint256.Int]bool{}
	for i := range 20_000 {
		// Few distinct values at first, so repeats hit the recent slots; then
		// many, so the pool wraps and drops values that come back later.
		w := *uint256.NewInt(uint64(rng.IntN(min(64+i/4, 3000))))
		g.AddHint(w)
		if seen[w] {
			continue
		}
		seen[w] = true
		want = append(want, w)
		if len(want) > maxHints {
			delete(seen, want[0])
			want = want[1:]
		}
	}
	got := slices.Clone(g.hints)
	slices.SortFunc(got, func(a, b uint256.Int) int { return a.Cmp(&b) })
	slices.SortFunc(want, func(a, b uint256.Int) int { return a.Cmp(&b) })
	if !slices.Equal(got, want) || len(g.hintSeen) != len(want) {
		t.Errorf("the pool holds %d values (%d seen), want the last %d distinct ones", len(got), len(g.hintSeen), len(want))
	}
}
