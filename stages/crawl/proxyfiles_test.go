package crawl

import (
	"encoding/json"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/solbehave/solbehave/internal/stagetest"
	"github.com/solbehave/solbehave/schemas"
)

// proxyFile is an EIP-1967 proxy: its slot and a forwarding fallback.
const proxyFile = `pragma solidity ^0.8.0;
contract Forwarder {
    bytes32 internal constant _IMPLEMENTATION_SLOT = 0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc;
    fallback() external payable { address implementation; assembly { let r := delegatecall(gas(), implementation, 0, calldatasize(), 0, 0) } }
}`

// multiFileSource is Etherscan's standard-JSON form of files.
func multiFileSource(t *testing.T, files map[string]string) string {
	t.Helper()
	sources := map[string]any{}
	for path, text := range files {
		sources[path] = map[string]string{"content": text}
	}
	b, err := json.Marshal(map[string]any{"language": "Solidity", "sources": sources})
	if err != nil {
		t.Fatal(err)
	}
	return "{" + string(b) + "}"
}

// A proxy file the contract never reaches (shipped with the package it
// imports a library from) does not make the contract a proxy; the same file
// in the contract's inheritance chain does.
func TestCrawlReadsOnlyTheFilesTheContractUses(t *testing.T) {
	lib := `pragma solidity ^0.8.0;
library SafeAdd { function add(uint a, uint b) internal pure returns (uint) { return a + b; } }`
	token := `pragma solidity ^0.8.0;
import "./SafeAdd.sol";
contract Token { mapping(address => uint) public balanceOf;
    function mint(uint v) public { balanceOf[msg.sender] = SafeAdd.add(balanceOf[msg.sender], v); } }`
	upgradeable := `pragma solidity ^0.8.0;
import "./Forwarder.sol";
contract Upgradeable is Forwarder { uint public x; }`
	corpus := t.TempDir()
	addr := func(i byte) common.Address { return common.BytesToAddress([]byte{0xc1, i}) }
	writeRecord(t, corpus, "Token", addr(1), multiFileSource(t, map[string]string{
		"Token.sol": token, "SafeAdd.sol": lib, "Forwarder.sol": proxyFile}), 250)
	writeRecord(t, corpus, "Upgradeable", addr(2), multiFileSource(t, map[string]string{
		"Upgradeable.sol": upgradeable, "Forwarder.sol": proxyFile}), 250)
	env := stagetest.IsolatedEnv(t, corpus)
	stagetest.Run(t, env, New())
	want := map[string]bool{"Token": false, "Upgradeable": true}
	rows := stagetest.Rows(t, env, schemas.CrawlCandidates)
	if len(rows) != len(want) {
		t.Fatalf("want %d candidates: %+v", len(want), rows)
	}
	for _, r := range rows {
		if r.Proxy != want[r.Name] {
			t.Errorf("%s: proxy=%v (%s), want %v", r.Name, r.Proxy, r.ProxyEvidence, want[r.Name])
		}
	}
}
