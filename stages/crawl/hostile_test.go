package crawl

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/solbehave/solbehave/internal/failure"
	"github.com/solbehave/solbehave/internal/stagetest"
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
	if c := stagetest.Run(t, env, s); c.Failed != 2 {
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
	errs := stagetest.Rows(t, env, schemas.Errors)
	for _, e := range errs {
		if e.Class != "input" || e.Retriable {
			t.Errorf("error row %+v: want class input, not retriable", e)
		}
	}
	rows := stagetest.Rows(t, env, schemas.CrawlCandidates)
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

// hostileFolders writes a corpus of one sound contract and folders that
// used to stop planning, hang it or vanish in silence: a source that links
// to /dev/zero, a history that is a FIFO, a source that is a folder, a
// 243-byte folder name, a folder that is a link to a sound one, and a
// folder named ".._0x…". It returns the corpus and the hostile folder names.
func hostileFolders(t *testing.T) (string, []string) {
	t.Helper()
	corpus := t.TempDir()
	addr := func(i int) common.Address { return common.BigToAddress(big.NewInt(int64(0xf0 + i))) }
	hex := func(i int) string { return strings.ToLower(addr(i).Hex()) }
	writeRecord(t, corpus, "Good", addr(0), "contract Good {}", 250)
	names := []string{"Zero_" + hex(1), "Fifo_" + hex(2), "SourceDir_" + hex(3),
		strings.Repeat("L", 243-43) + "_" + hex(4), "Link_" + hex(5), ".._" + hex(6)}
	for i, n := range names[:4] {
		writeRecord(t, corpus, strings.TrimSuffix(n, "_"+hex(i+1)), addr(i+1), "contract X {}", 250)
	}
	zero := filepath.Join(corpus, names[0], "getsourcecode.json")
	os.Remove(zero)
	must(t, os.Symlink("/dev/zero", zero))
	fifo := filepath.Join(corpus, names[1], "txlist.json")
	os.Remove(fifo)
	must(t, syscall.Mkfifo(fifo, 0o644))
	dir := filepath.Join(corpus, names[2], "getsourcecode.json")
	os.Remove(dir)
	must(t, os.Mkdir(dir, 0o755))
	must(t, os.Symlink(filepath.Join(corpus, "Good_"+hex(0)), filepath.Join(corpus, names[4])))
	must(t, os.Mkdir(filepath.Join(corpus, names[5]), 0o755))
	return corpus, names
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestHostileFoldersAreInputRows: each hostile folder is one input error
// row naming it, the sound contract passes, and the crawl ends (a FIFO or
// /dev/zero is never opened for reading).
func TestHostileFoldersAreInputRows(t *testing.T) {
	corpus, hostile := hostileFolders(t)
	env := stagetest.IsolatedEnv(t, corpus)
	if c := stagetest.Run(t, env, New()); c.Units != len(hostile)+1 || c.Failed != len(hostile) {
		t.Errorf("want %d units, %d failed; got %+v", len(hostile)+1, len(hostile), c)
	}
	errs := stagetest.Rows(t, env, schemas.Errors)
	for _, f := range hostile {
		n := 0
		for _, e := range errs {
			if strings.Contains(e.Message, f) && e.Class == failure.Input.String() && !e.Retriable {
				n++
			}
		}
		if n != 1 {
			t.Errorf("folder %.40q… is named by %d input error rows, want 1", f, n)
		}
	}
	rows := stagetest.Rows(t, env, schemas.CrawlCandidates)
	passed := 0
	for _, r := range rows {
		if r.Passed {
			passed++
		}
	}
	if len(rows) != len(hostile)+1 || passed != 1 {
		t.Errorf("want a candidate row per folder and the sound one passed, got %d rows, %d passed", len(rows), passed)
	}
}

// TestCancelledPlanningEnds: a cancelled context ends the crawl's planning
// with its error, having read no record.
func TestCancelledPlanningEnds(t *testing.T) {
	corpus := t.TempDir()
	writeRecord(t, corpus, "Good", common.HexToAddress("0x00000000000000000000000000000000000000f0"), "contract Good {}", 250)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	env := &pipeline.Env{Corpus: corpus, Data: t.TempDir(), Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	if units, err := New().Plan(ctx, env); !errors.Is(err, context.Canceled) {
		t.Fatalf("want planning to end with context.Canceled, got %d units, %v", len(units), err)
	}
}
