package verify

import (
	"encoding/json"
	"strings"
	"testing"
)

// withUnusedProxy is standardJSON(name, 1) with one more file the contract
// never imports: an EIP-1967 forwarder, as a package folder may ship.
func withUnusedProxy(t *testing.T, name string) string {
	t.Helper()
	var in map[string]any
	if err := json.Unmarshal([]byte(strings.TrimSuffix(strings.TrimPrefix(standardJSON(name, 1), "{"), "}")), &in); err != nil {
		t.Fatal(err)
	}
	in["sources"].(map[string]any)["src/proxy/Forwarder.sol"] = map[string]string{"content": "pragma solidity 0.8.19;\n" +
		"contract Forwarder {\n    bytes32 internal constant SLOT = 0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc;\n" +
		"    fallback() external payable { address implementation; assembly { let r := delegatecall(gas(), implementation, 0, calldatasize(), 0, 0) } }\n}\n"}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	return "{" + string(b) + "}"
}

// verify's proxy filter reads the files the contract uses: a proxy file of
// the source that nothing imports does not drop the contract.
func TestUnusedProxyFileKeepsTheContract(t *testing.T) {
	corpus := t.TempDir()
	f := newFixture(t, corpus, "Token", 0)
	f.writeSource(t, withUnusedProxy(t, "Token"), "v0.8.19+commit.7dd6d404")
	f.writeHistory(210)
	s := New()
	s.Budget = 20
	_, rows := verifyContracts(t, corpus, s, 1)
	if r := rows[0]; !r.Kept {
		t.Errorf("Token: not kept (%s)", r.Reason)
	}
}
