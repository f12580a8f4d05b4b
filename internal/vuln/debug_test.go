package vuln

import (
	"context"
	"fmt"
	"math/big"
	"testing"
)

func TestDebugReentrancy(t *testing.T) {
	target := deployTestdata(t, "reentrancy.sol", "ReentrantBank")
	e, err := newEngine(target, testConfig(1).withDefaults())
	if err != nil {
		t.Fatal(err)
	}
	var dep, wd *candidate
	for _, c := range e.candidates {
		fmt.Println(c.name, c.rank, c.weight, c.payable)
		if c.name == "deposit()" { dep = c }
		if c.name == "withdraw()" { wd = c }
	}
	s := &Seed{Txs: []Tx{{fn: dep, Sender: 3, Value: big.NewInt(1e18), Advance: 15}, {fn: wd, Sender: 3, Value: new(big.Int), Advance: 15}}}
	run := e.replay(s)
	for i, tx := range run.txs {
		fmt.Println("tx", i, tx.success)
		for _, ev := range tx.trace.events {
			fmt.Printf("  %+v\n", ev)
		}
	}
	_ = context.Background()
}
