package bytecode

import (
	"os"
	"testing"
	"time"
)

func TestSlowInput(t *testing.T) {
	tok := loadFixture(t, fixtures[2])
	code, _ := os.ReadFile(os.Getenv("SLOWIN"))
	st := time.Now()
	c := BuildCFG(code)
	t.Logf("cfg %v blocks %d", time.Since(st), len(c.Blocks))
	st = time.Now()
	routes := Dispatch(c)
	t.Logf("dispatch %v routes %d", time.Since(st), len(routes))
	st = time.Now()
	fns, err := RecoverFunctionsWithLimits(c, tok.abi, Limits{MaxPaths: 64, MaxDepth: 128, MaxSteps: 2000})
	t.Logf("recover %v %d %v", time.Since(st), len(fns), err)
}
