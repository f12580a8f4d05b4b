package callseq

import (
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"

	"github.com/solbehave/solbehave/internal/chain"
	"github.com/solbehave/solbehave/internal/dcrgraph"
	"github.com/solbehave/solbehave/internal/replay"
)

func chainMsg(c replay.Call, to *common.Address) chain.Msg {
	return chain.Msg{From: c.From, To: to, Data: c.Data, Value: c.Value, Gas: c.Gas, Block: c.Block}
}

const argsABI = `[
 {"type":"function","name":"f","stateMutability":"nonpayable","inputs":[
   {"name":"a","type":"address[]"},{"name":"b","type":"bool"},{"name":"c","type":"bytes"},
   {"name":"d","type":"int16"},{"name":"e","type":"bytes4"},{"name":"g","type":"uint8[2]"},
   {"name":"h","type":"tuple","components":[{"name":"x","type":"uint256"},{"name":"y","type":"string"}]}],"outputs":[]},
 {"type":"function","name":"g","stateMutability":"nonpayable","inputs":[{"name":"n","type":"uint8"}],"outputs":[]},
 {"type":"function","name":"g","stateMutability":"nonpayable","inputs":[{"name":"n","type":"address"}],"outputs":[]}
]`

func parseABI(t *testing.T) abi.ABI {
	a, err := abi.JSON(strings.NewReader(argsABI))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestEncodeCallRoundTrips(t *testing.T) {
	a := parseABI(t)
	m := a.Methods["f"]
	args := []dcrgraph.Arg{
		{Type: "address[]", Value: dcrgraph.StringArg(`["0x00000000000000000000000000000000000000aa","0x00000000000000000000000000000000000000bb"]`)},
		{Type: "bool", Value: dcrgraph.BoolArg(true)},
		{Type: "bytes", Value: dcrgraph.StringArg("0x0102")},
		{Type: "int16", Value: dcrgraph.NumberArg("-300")},
		{Type: "bytes4", Value: dcrgraph.StringArg("0xdeadbeef")},
		{Type: "uint8[2]", Value: dcrgraph.StringArg(`[1, "0x02"]`)},
		{Type: "(uint256,string)", Value: dcrgraph.StringArg(`["1e3", "hi"]`)},
	}
	data, err := encodeCall(&m, args)
	if err != nil {
		t.Fatal(err)
	}
	got := formatArgs(&m, data)
	want := `["[0x00000000000000000000000000000000000000aa,0x00000000000000000000000000000000000000bb]","true","0x0102","-300","0xdeadbeef","[1,2]","{1000 hi}"]`
	if got != want {
		t.Fatalf("decoded %s\nwant    %s", got, want)
	}
}

func TestEncodeCallRejectsBadValues(t *testing.T) {
	a := parseABI(t)
	g := a.Methods["g"] // the uint8 overload is named g, the other g0
	for _, arg := range []dcrgraph.Arg{
		{Type: "uint8", Value: dcrgraph.NumberArg("256")},
		{Type: "uint8", Value: dcrgraph.NumberArg("-1")},
		{Type: "uint8", Value: dcrgraph.BoolArg(true)},
	} {
		if _, err := encodeCall(&g, []dcrgraph.Arg{arg}); err == nil {
			t.Errorf("%s %s encoded", arg.Type, arg.Value.Text)
		}
	}
	if _, err := encodeCall(&g, nil); err == nil {
		t.Error("a missing argument encoded")
	}
}

func TestMethodForPicksTheOverloadByTypes(t *testing.T) {
	a := parseABI(t)
	m, err := methodFor(a, dcrgraph.Event{Function: "g", Args: []dcrgraph.Arg{{Type: "address", Value: dcrgraph.StringArg("0x00000000000000000000000000000000000000aa")}}})
	if err != nil || m.Inputs[0].Type.String() != "address" {
		t.Fatalf("%v %v", m, err)
	}
	if m, err := methodFor(a, dcrgraph.Event{Function: "fallback"}); m != nil || err != nil {
		t.Fatalf("fallback: %v %v", m, err)
	}
	if _, err := methodFor(a, dcrgraph.Event{Function: "nope"}); err == nil {
		t.Fatal("an unknown function resolved")
	}
}

func TestUsersAreTheMostFrequentSenders(t *testing.T) {
	d := loadDemo(t, "MultiSigWallet")
	got := users(3, d.rec.Txs, d.rec.Deployer(), d.rec.RecordedAddress())
	count := map[common.Address]int{}
	for _, tx := range d.rec.Txs {
		count[tx.From]++
	}
	for _, u := range got {
		if u == d.rec.Deployer() || count[u] == 0 {
			t.Fatalf("user %s is the deployer or never sent", u)
		}
	}
	for a, n := range count {
		if a != d.rec.Deployer() && n > count[got[2]] && !containsAddress(got, a) {
			t.Fatalf("%s sent %d times but is not among %v", a, n, got)
		}
	}
	padded := users(3, nil, common.Address{1}, common.Address{2})
	if padded[0] != SyntheticUser(0) || len(padded) != 3 {
		t.Fatalf("padding %v", padded)
	}
	_ = big.NewInt
}
