package vuln

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

// The attacker's bytecode is what every reentrancy verdict rests on: these
// digests pin it, so a change of the assembler (evmasm) or of the
// attacker's program shows here before it shows as changed findings.
func TestAttackerBytecodeIsUnchanged(t *testing.T) {
	for _, c := range []struct {
		target    string
		reentries int
		sha256    string
	}{
		{"0x00000000000000000000000000000000000000aa", 0, "7b3b52b86335968e26eec2f8507ad53fc1295d26265dc98e37b17ef36998e79d"},
		{"0x00000000000000000000000000000000000000aa", 1, "bdd8f849361e152e8527d5aa1fce0137941e5425d5160837e5b6c8577223805d"},
		{"0x5FbDB2315678afecb367f032d93F642f64180aa3", 3, "fd7d3267c9494780fc70859b07bf7e4ceae36ecf2ed9fcebb76b20307d809875"},
		{"0xffffffffffffffffffffffffffffffffffffffff", 255, "18bd8719e8c7638eea42608077a04fdc5cc7dbd555a59d4e824c4fdb8554f0ac"},
	} {
		sum := sha256.Sum256(attackerCode(common.HexToAddress(c.target), c.reentries))
		if got := hex.EncodeToString(sum[:]); got != c.sha256 {
			t.Errorf("attacker for %s with %d re-entries: code digest %s, want %s", c.target, c.reentries, got, c.sha256)
		}
	}
}
