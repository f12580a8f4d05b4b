package vuln

import (
	"bytes"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi"

	"github.com/solbehave/solbehave/internal/chain"
)

// TestDeployFuzzesRevertingConstructor: a constructor that refuses its zero
// arguments is deployed with arguments the fuzzer chooses, and says so.
func TestDeployFuzzesRevertingConstructor(t *testing.T) {
	target := deployTestdata(t, "ctor_revert.sol", "Supply")
	if len(target.Chain.Code(target.Address)) == 0 {
		t.Fatal("no code deployed")
	}
	if !strings.Contains(target.Deployment, "constructor arguments chosen by the fuzzer") {
		t.Errorf("deployment note %q, want the fuzzer's arguments named", target.Deployment)
	}
}

// TestCreateLiftsCodeSize: creation code returning 25,000 bytes (above
// EIP-170's 24,576) fails a plain creation; create lifts the limit and
// installs the code, with a note (real EVM).
func TestCreateLiftsCodeSize(t *testing.T) {
	// PUSH2 25000 PUSH1 0 RETURN: returns 25,000 zero bytes of memory.
	initCode := []byte{0x61, 0x61, 0xa8, 0x60, 0x00, 0xf3}
	h := chain.New(chain.Options{})
	msg := chain.Msg{From: StandaloneDeployer, Data: initCode, Value: new(big.Int), Gas: chain.DefaultGas, Block: PetersburgBlock}
	plain, err := h.Fork().Apply(msg)
	if err != nil || plain.Success {
		t.Fatalf("plain creation: success %v err %v; want the code-size failure", plain != nil && plain.Success, err)
	}
	done, addr, note, err := create(h, msg)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(done.Code(addr)); n != 25000 {
		t.Errorf("code size %d, want 25000", n)
	}
	if !strings.Contains(note, "code size limit lifted") {
		t.Errorf("note %q, want the lift named", note)
	}
}

// TestBlockForRunsWhatTheCompilerEmits: a 0.5.17 contract reading its own
// balance (SELFBALANCE, istanbul) is deployed where istanbul's rules hold,
// so the payout runs instead of failing on an invalid opcode (real solc,
// real EVM); each release maps to the fork it compiles for by default.
func TestBlockForRunsWhatTheCompilerEmits(t *testing.T) {
	for release, want := range map[string]chain.Block{
		"0.4.26": PetersburgBlock, "0.5.13": PetersburgBlock, "0.5.14": IstanbulBlock, "0.8.6": IstanbulBlock,
		"0.8.7": LondonBlock, "0.8.19": LondonBlock, "0.8.20": ShanghaiBlock, "0.8.30": CancunBlock, "nightly": PetersburgBlock,
	} {
		if got := BlockFor(release); got != want {
			t.Errorf("BlockFor(%q) = %+v, want %+v", release, got, want)
		}
	}
	target := deployTestdata(t, "blockstate_payout.sol", "Payout")
	parsed, err := abi.JSON(bytes.NewReader(target.ABI))
	if err != nil {
		t.Fatal(err)
	}
	data, err := parsed.Pack("play")
	if err != nil {
		t.Fatal(err)
	}
	stake := new(big.Int).Mul(big.NewInt(10), big.NewInt(1e18))
	b := chain.Block{Number: target.Block.Number + 1, Time: target.Block.Time + 15 - target.Block.Time%15} // a multiple of 15
	res, err := target.Chain.Fork().Apply(chain.Msg{From: StandaloneDeployer, To: &target.Address, Data: data, Value: stake, Gas: chain.DefaultGas, Block: b})
	if err != nil || !res.Success {
		t.Fatalf("play with the stake: success %v, err %v %v; want the payout to run", res != nil && res.Success, err, res)
	}
}
