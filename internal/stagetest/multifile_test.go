package stagetest_test

import (
	"testing"

	"github.com/solbehave/solbehave/internal/deploy/deploytest"
)

func TestMain(m *testing.M) { deploytest.Main(m) }

// TestMultiFileCorpus: the multi-file fixture's record reads back as a
// standard-JSON source whose recorded settings compile it, and its original
// deploys at the recorded address and replays its history as recorded.
func TestMultiFileCorpus(t *testing.T) {
	rec, out := deploytest.LoadMultiFile(t, 1000)
	if rec.Files.Format != "standard_json" || len(rec.Files.Files) != 6 || len(rec.Txs) < 40 {
		t.Fatalf("record: format %s, %d files, %d transactions", rec.Files.Format, len(rec.Files.Files), len(rec.Txs))
	}
	d := deploytest.DeployTarget(t, rec, out)
	if !d.AtRecorded {
		t.Fatalf("deployed at %s, not at the recorded address", d.Address)
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
