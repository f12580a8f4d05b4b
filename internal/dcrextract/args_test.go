package dcrextract

import (
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi"
)

// overloads has g(uint8), g(address) and g(uint8,uint8): the types pick
// among equal arities, the arity among the rest.
const overloads = `[
 {"type":"function","name":"g","inputs":[{"name":"x","type":"uint8"}],"outputs":[],"stateMutability":"nonpayable"},
 {"type":"function","name":"g","inputs":[{"name":"a","type":"address"}],"outputs":[],"stateMutability":"nonpayable"},
 {"type":"function","name":"g","inputs":[{"name":"x","type":"uint8"},{"name":"y","type":"uint8"}],"outputs":[],"stateMutability":"nonpayable"}
]`

func TestMethodForRanksTypesThenArityThenName(t *testing.T) {
	parsed, err := abi.JSON(strings.NewReader(overloads))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		types     []string
		wantSig   string
		sameArity bool
	}{
		{[]string{"address"}, "g(address)", true},
		{[]string{"uint8"}, "g(uint8)", true},
		{[]string{"uint8", "uint8"}, "g(uint8,uint8)", true},
		{[]string{"bool"}, "g(uint8)", true},                     // first of that arity in signature order (g before g0)
		{[]string{"uint8", "uint8", "uint8"}, "g(uint8)", false}, // no such arity: the first of the name
	} {
		m, sameArity := MethodFor(&parsed, "g", c.types)
		if m == nil || m.Sig != c.wantSig || sameArity != c.sameArity {
			t.Errorf("%v: got %v %v, want %s %v", c.types, m, sameArity, c.wantSig, c.sameArity)
		}
	}
	if m, _ := MethodFor(&parsed, "h", nil); m != nil {
		t.Errorf("an unknown function resolved to %s", m.Sig)
	}
}
