package dcrextract

import (
	"context"
	"os"
	"sync"
	"testing"

	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/solc"
	"github.com/solbehave/solbehave/internal/stagetest"
)

const demoCorpus = "../../data/corpus/demo"

var (
	solcOnce sync.Once
	manager  *solc.Manager
	demoMu   sync.Mutex
	demo     = map[string]*demoContract{}
)

func TestMain(m *testing.M) {
	code := m.Run()
	if manager != nil {
		manager.Close()
	}
	os.Exit(code)
}

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
	rec := stagetest.LoadRecords(t, demoCorpus, 200, name)[0]
	solcOnce.Do(func() { manager = solc.NewManager(solc.Options{}) })
	out, err := manager.Compile(context.Background(), rec.CompileInput(nil))
	if err != nil {
		t.Fatal(err)
	}
	demo[name] = &demoContract{rec: rec, out: out}
	return demo[name]
}

var demoNames = []string{"Vault", "GiftToken", "MultiSigWallet", "EtherLocker", "TimedCrowdsale",
	"StakingPool", "AllowlistNFT", "PaymentChannel"}
