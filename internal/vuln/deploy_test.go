package vuln

import (
	"math/big"
	"strings"
	"testing"

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
