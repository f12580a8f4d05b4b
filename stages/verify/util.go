package verify

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"

	"github.com/ethereum/go-ethereum/accounts/abi"

	"github.com/solbehave/solbehave/internal/solc"
)

func parseABI(c *solc.Contract) (abi.ABI, error) { return abi.JSON(bytes.NewReader(c.ABI)) }

func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}
