// Package faults writes the fault corpus (data/faults): one contract per way
// an input can be bad, in the demo corpus's Etherscan layout, so tests can
// check that each ends as an error row with its reason while the others
// complete. The executable faults (a loop that runs out of gas, a
// self-destruct, a very large contract) get histories recorded on the real
// harness with the real compiler; the others are broken answers.
//
//	go run ./cmd/democorpus -faults -out data/faults
package faults

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/solbehave/solbehave/internal/solc"
)

// Fault is one bad input and the failure class the pipeline must record.
type Fault struct {
	Name  string // contract name (folder prefix)
	Class string // expected reason class in `reproducibility` / `errors`
	Why   string
}

// Expected lists the faults and what each must end as.
var Expected = []Fault{
	{"MalformedAnswer", "source", "getsourcecode.json is not JSON"},
	{"TruncatedAnswer", "source", "txlist.json is cut in the middle"},
	{"RateLimited", "source", "Etherscan's rate-limit answer instead of a result"},
	{"Unverified", "unverified", "empty SourceCode"},
	{"UpgradeProxy", "proxy", "an EIP-1967 proxy: compiles and would reproduce, but a proxy is never kept (§IV-A a); a reason, not an error row"},
	{"NoCompile", "compile", "a syntax error"},
	{"UnknownCompiler", "compile", "CompilerVersion v0.4.99, which does not exist"},
	{"RevertingConstructor", "deploy", "the constructor reverts"},
	{"GasEater", "", "a function that loops until it runs out of gas; its recorded calls failed on mainnet too"},
	{"SelfDestructing", "", "kill() self-destructs half way through the history"},
	{"HugeContract", "deploy", "runtime code over the 24,576-byte limit (EIP-170)"},
	// Folders the corpus reader rejects (crawl's error rows; no stage after
	// it sees them): Class input.
	{"NoSource", "input", "a folder with txlist.json but no getsourcecode.json"},
	{"NotHexAddress", "input", "the address part of the folder name is not hexadecimal"},
	{"TwinA", "input", "the same address as TwinB: neither folder is read"},
	{"TwinB", "input", "TwinA's address in upper case: neither folder is read"},
}

const compiler = "v0.8.19+commit.7dd6d404"

// Write regenerates the fault corpus under dir.
func Write(ctx context.Context, m *solc.Manager, dir string) error {
	for i, f := range Expected {
		if err := writeFault(ctx, m, dir, f, uint64(i)); err != nil {
			return fmt.Errorf("%s: %w", f.Name, err)
		}
	}
	return nil
}

func writeFault(ctx context.Context, m *solc.Manager, dir string, f Fault, n uint64) error {
	deployer := crypto.PubkeyToAddress(mustKey("faults/" + f.Name).PublicKey)
	addr := crypto.CreateAddress(deployer, 0)
	folder := filepath.Join(dir, folderName(f.Name, addr))
	if err := os.MkdirAll(folder, 0o755); err != nil {
		return err
	}
	r := &recorder{name: f.Name, deployer: deployer, address: addr, block: 16_700_000 + 1000*n}
	switch f.Name {
	case "MalformedAnswer":
		return r.raw(folder, `{"status":"1","message":"OK","result":[{"SourceCode": this is not json}]}`, "")
	case "RateLimited":
		return r.raw(folder, `{"status":"0","message":"NOTOK","result":"Max rate limit reached"}`, "")
	case "Unverified":
		return r.unverified(ctx, m, folder)
	case "NoCompile":
		return r.staticHistory(folder, fmt.Sprintf(storeSrc, f.Name, "this is not solidity;"), compiler)
	case "UnknownCompiler":
		return r.staticHistory(folder, fmt.Sprintf(storeSrc, f.Name, ""), "v0.4.99+commit.00000000")
	case "NoSource", "NotHexAddress", "TwinA", "TwinB":
		if err := r.staticHistory(folder, fmt.Sprintf(storeSrc, f.Name, ""), compiler); err != nil {
			return err
		}
		if f.Name == "NoSource" {
			return os.Remove(filepath.Join(folder, "getsourcecode.json"))
		}
		return nil
	}
	src := sources[f.Name]
	if src == "" {
		src = fmt.Sprintf(storeSrc, f.Name, "")
	}
	if err := r.record(ctx, m, src); err != nil {
		return err
	}
	if err := r.write(folder, src); err != nil {
		return err
	}
	if f.Name == "TruncatedAnswer" {
		b, _ := os.ReadFile(filepath.Join(folder, "txlist.json"))
		return os.WriteFile(filepath.Join(folder, "txlist.json"), b[:len(b)/2], 0o644)
	}
	return nil
}

// folderName is <name>_<address>, but for the folders whose name is the fault.
func folderName(name string, addr common.Address) string {
	a := strings.ToLower(addr.Hex())
	switch name {
	case "NotHexAddress":
		a = "0x" + strings.Repeat("g", 40)
	case "TwinA", "TwinB":
		twin := crypto.CreateAddress(crypto.PubkeyToAddress(mustKey("faults/TwinA").PublicKey), 0)
		a = strings.ToLower(twin.Hex())
		if name == "TwinB" {
			a = "0x" + strings.ToUpper(a[2:])
		}
	}
	return name + "_" + a
}

const storeSrc = `pragma solidity 0.8.19;
contract %s {
    uint256 public x;
    %s
    function set(uint256 v) public { x = v; }
}
`

var sources = map[string]string{
	"UpgradeProxy": `pragma solidity 0.8.19;
contract UpgradeProxy {
    bytes32 internal constant IMPLEMENTATION_SLOT = 0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc;
    uint256 public x;
    function set(uint256 v) public { x = v; }
    fallback() external payable {
        address impl;
        assembly { impl := sload(IMPLEMENTATION_SLOT) }
        (bool ok, ) = impl.delegatecall(msg.data);
        require(ok);
    }
}
`,
	"RevertingConstructor": `pragma solidity 0.8.19;
contract RevertingConstructor {
    uint256 public x;
    constructor() { require(block.number > 1e12, "not on this chain"); }
    function set(uint256 v) public { x = v; }
}
`,
	"GasEater": `pragma solidity 0.8.19;
contract GasEater {
    uint256 public x;
    function set(uint256 v) public { x = v; }
    function spin() public { while (true) { x += 1; } }
}
`,
	"SelfDestructing": `pragma solidity 0.8.19;
contract SelfDestructing {
    uint256 public x;
    address owner = msg.sender;
    function set(uint256 v) public { x = v; }
    function kill() public { require(msg.sender == owner); selfdestruct(payable(owner)); }
}
`,
}

func init() {
	var b strings.Builder
	b.WriteString("pragma solidity 0.8.19;\ncontract HugeContract {\n    uint256 public x;\n    function set(uint256 v) public { x = v; }\n")
	for i := 0; i < 700; i++ {
		fmt.Fprintf(&b, "    function f%d(uint256 a, uint256 b) public returns (uint256) { x = a * %d + b / %d + x; return x; }\n", i, i+3, i+7)
	}
	b.WriteString("}\n")
	sources["HugeContract"] = b.String()
}

func mustKey(seed string) *ecdsa.PrivateKey {
	k, err := crypto.ToECDSA(crypto.Keccak256([]byte(seed)))
	if err != nil {
		panic(err)
	}
	return k
}

// encodeJSON writes deterministic, indented JSON without HTML escaping.
func encodeJSON(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	enc.Encode(v)
	return buf.Bytes()
}

func sortedFolders(dir string) []string {
	entries, _ := os.ReadDir(dir)
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	return out
}
