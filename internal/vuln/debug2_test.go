package vuln

import (
	"fmt"
	"math/big"
	"testing"
)

func TestDebugPD(t *testing.T) {
	target := sbTarget(t, "reentrancy/0x7a8721a9d64c74da899424c1b52acbf58ddc9782.sol", "0.4.19", "PrivateDeposit")
	c := DefaultConfig()
	c.Seed = 1
	e, _ := newEngine(target, c.withDefaults())
	one := new(big.Int).Exp(big.NewInt(10), big.NewInt(18), nil)
	nd, big1 := 0, 0
	for i := 0; i < 300; i++ {
		s := e.randomSeed()
		for _, tx := range s.Txs {
			if tx.fn.name == "Deposit()" {
				nd++
				if tx.Value.Cmp(one) >= 0 {
					big1++
				}
			}
		}
	}
	fmt.Println(nd, big1)
}
