package stagetest_test

import (
	"os/exec"
	"testing"

	"github.com/solbehave/solbehave/internal/chain"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/solc"
	"github.com/solbehave/solbehave/internal/stagetest"
)

// TestMultiFileCorpus: the multi-file fixture's record reads back as a
// standard-JSON source whose recorded settings compile it, and its original
// deploys at the recorded address and replays its history as recorded.
func TestMultiFileCorpus(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed: solc cannot run")
	}
	m := solc.NewManager(solc.Options{})
	t.Cleanup(func() { m.Close() })
	_, rec := stagetest.MultiFileRecord(t, m, 1000)
	if rec.Files.Format != "standard_json" || len(rec.Files.Files) != 6 || len(rec.Txs) < 40 {
		t.Fatalf("record: format %s, %d files, %d transactions", rec.Files.Format, len(rec.Files.Files), len(rec.Txs))
	}
	out, err := m.Compile(t.Context(), rec.CompileInput(nil))
	if err != nil {
		t.Fatalf("the recorded standard-JSON input does not compile: %v", err)
	}
	target, err := rec.Target(out)
	if err != nil {
		t.Fatal(err)
	}
	d, err := deploy.Deploy(rec, out, target, nil, chain.Options{})
	if err != nil || !d.AtRecorded {
		t.Fatalf("deploy: %v (at the recorded address: %v)", err, d != nil && d.AtRecorded)
	}
	reverted := 0
	for _, tx := range rec.Txs {
		res, err := d.Replay(d.Chain, tx)
		if err != nil {
			t.Fatal(err)
		}
		if res.Success != tx.Succeeded {
			t.Errorf("transaction %d: success %v, recorded %v", tx.Index, res.Success, tx.Succeeded)
		}
		if !res.Success {
			reverted++
		}
	}
	if reverted < 8 {
		t.Errorf("%d reverted transactions, want the history's refusals", reverted)
	}
}
