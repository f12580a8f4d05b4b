package guardstate

import (
	"math/big"
	"strconv"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi"
)

// Every int width Solidity has packs as a getter argument, odd widths
// (uint24, int40, ...) included, and a value outside a width of at most 64
// bits is refused, not wrapped.
func TestSizedIntPacksEveryWidth(t *testing.T) {
	for size := 8; size <= 256; size += 8 {
		for _, kind := range []string{"uint", "int"} {
			typ, err := abi.NewType(kind+strconv.Itoa(size), "", nil)
			if err != nil {
				t.Fatal(err)
			}
			max := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(size)), big.NewInt(1))
			if kind == "int" {
				max.Rsh(max, 1)
			}
			v, err := sizedInt(typ, max)
			if err != nil {
				t.Fatalf("%s: %v", typ, err)
			}
			packed, err := abi.Arguments{{Type: typ}}.Pack(v)
			if err != nil {
				t.Fatalf("%s: the largest value does not pack: %v", typ, err)
			}
			if got := new(big.Int).SetBytes(packed); got.Cmp(max) != 0 {
				t.Errorf("%s: packed %s, want %s", typ, got, max)
			}
			if size <= 64 { // wider ints keep what abi.Pack does with them
				over := new(big.Int).Add(max, big.NewInt(1))
				under := new(big.Int).Sub(new(big.Int).Neg(over), big.NewInt(1))
				if kind == "uint" {
					under = big.NewInt(-1)
				}
				for _, bad := range []*big.Int{over, under} {
					if _, err := sizedInt(typ, bad); err == nil {
						t.Errorf("%s: %s accepted", typ, bad)
					}
				}
				min := new(big.Int).Neg(new(big.Int).Add(max, big.NewInt(1)))
				if _, err := sizedInt(typ, min); kind == "int" && err != nil {
					t.Errorf("%s: the smallest value %s refused: %v", typ, min, err)
				}
			}
		}
	}
}
