package crawl

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

// TestLiveNamesFromOutsideStayInTheirFolder: an Etherscan answer whose
// ContractName climbs out of the corpus folder, and an --addresses entry that
// is a path, are error rows of class input; nothing is written outside.
func TestLiveNamesFromOutsideStayInTheirFolder(t *testing.T) {
	corpus := t.TempDir()
	evil := common.HexToAddress("0x00000000000000000000000000000000000000e1")
	good := common.HexToAddress("0x00000000000000000000000000000000000000e2")
	writeRecord(t, corpus, "Evil", evil, "contract Evil {}", 250)
	writeRecord(t, corpus, "Good", good, "contract Good {}", 250)
	renameContract(t, filepath.Join(corpus, "Evil_"+strings.ToLower(evil.Hex()), "getsourcecode.json"), "../../../../outside")
	root := t.TempDir()
	data := filepath.Join(root, "a", "b", "c", "data")
	s, env := liveStage(t, corpus, data)
	s.Addresses = []string{evil.Hex(), good.Hex(), "../../../../etc/passwd"}
	c, err := (&pipeline.Runner{Env: env}).Run(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	if c.Failed != 2 {
		t.Errorf("want the escaping name and the path-like address as 2 failed units, got %+v", c)
	}
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.Contains(p, "outside") {
			t.Errorf("a name from outside made %s", p)
		}
		return nil
	})
	if _, err := os.Stat(filepath.Join(data, "corpus", "crawled", "Good_"+strings.ToLower(good.Hex()), "txlist.json")); err != nil {
		t.Errorf("the sound contract was not written: %v", err)
	}
	errs, err := warehouse.ReadDataset[schemas.ErrorRow](env.Warehouse, "errors")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range errs {
		if e.Class != "input" || e.Retriable {
			t.Errorf("error row %+v: want class input, not retriable", e)
		}
	}
	rows, _ := warehouse.ReadDataset[schemas.CrawlCandidate](env.Warehouse, "crawl_candidates")
	var reasons []string
	for _, r := range rows {
		if strings.HasPrefix(r.Reason, "input: ") {
			reasons = append(reasons, r.Reason)
		}
	}
	if len(errs) != 2 || len(reasons) != 2 {
		t.Fatalf("want 2 error rows and 2 candidate rows saying why, got %+v and %q", errs, reasons)
	}
}

func renameContract(t *testing.T, path, name string) {
	t.Helper()
	b, _ := os.ReadFile(path)
	var env map[string]any
	if err := json.Unmarshal(b, &env); err != nil {
		t.Fatal(err)
	}
	env["result"].([]any)[0].(map[string]any)["ContractName"] = name
	b, _ = json.Marshal(env)
	os.WriteFile(path, b, 0o644)
}
