package dcrextract

import (
	"sync"
	"testing"

	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/deploy/deploytest"
	"github.com/solbehave/solbehave/internal/solc"
)

const demoCorpus = "../../data/corpus/demo"

var (
	demoMu sync.Mutex
	demo   = map[string]*demoContract{}
)

func TestMain(m *testing.M) { deploytest.Main(m) }

// demoContract is a demo corpus contract, compiled as recorded.
type demoContract struct {
	rec *deploy.Record
	out *solc.Output
}

// loadDemo loads and compiles one demo corpus contract by name (once per run).
func loadDemo(t *testing.T, name string) *demoContract {
	t.Helper()
	demoMu.Lock()
	defer demoMu.Unlock()
	if d := demo[name]; d != nil {
		return d
	}
	rec, out := deploytest.LoadCompiled(t, demoCorpus, 200, name)
	demo[name] = &demoContract{rec: rec, out: out}
	return demo[name]
}

var demoNames = []string{"Vault", "GiftToken", "MultiSigWallet", "EtherLocker", "TimedCrowdsale",
	"StakingPool", "AllowlistNFT", "PaymentChannel"}
