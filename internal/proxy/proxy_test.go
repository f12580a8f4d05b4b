package proxy

import (
	"encoding/hex"
	"testing"
)

func TestDetect(t *testing.T) {
	eip1967 := `contract P { bytes32 internal constant _IMPLEMENTATION_SLOT = 0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc; }`
	forwarder := `contract P { address implementation; function () payable external { address impl = implementation; assembly { let r := delegatecall(gas, impl, 0, calldatasize, 0, 0) } } }`
	token := `contract T { // delegatecall implementation in a comment only
	  mapping(address => uint) balanceOf; function transfer(address to, uint v) public { balanceOf[to] += v; } }`
	code, _ := hex.DecodeString("7f" + eip1967Slot + "54" + "5af4")
	pushData, _ := hex.DecodeString("7f" + eip1967Slot + "60f4") // 0xf4 only as PUSH data: no DELEGATECALL
	cases := []struct {
		name, flag, src string
		code            []byte
		want            bool
	}{
		{"flag", "1", token, nil, true},
		{"eip1967 source", "", eip1967, nil, true},
		{"fallback forwarder", "", forwarder, nil, true},
		{"token", "", token, nil, false},
		{"bytecode slot + delegatecall", "", "", code, true},
		{"0xf4 only inside PUSH data", "", "", pushData, false},
	}
	for _, c := range cases {
		if got := Detect(c.flag, c.src, c.code); got.Proxy != c.want {
			t.Errorf("%s: got %+v, want proxy=%v", c.name, got, c.want)
		}
	}
}
