//go:build solcfixtures

package bytecode

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/solbehave/solbehave/internal/solc"
)

// TestCorpusRecovery compiles every contract of ../shared/corpus/mainnet
// with its recorded compiler and settings (internal/solc, so npm and Node
// are needed, hence the build tag) and checks that every function of its
// recorded ABI is recovered from the runtime code.
func TestCorpusRecovery(t *testing.T) {
	root := filepath.Join("..", "..", "..", "shared", "corpus", "mainnet")
	dirs, err := os.ReadDir(root)
	if err != nil {
		t.Skipf("no corpus at %s (it lives beside the checkout as ../shared): %v", root, err)
	}
	m := solc.NewManager(solc.Options{})
	defer m.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		t.Run(d.Name(), func(t *testing.T) {
			rec := readSourceRecord(t, filepath.Join(root, d.Name(), "getsourcecode.json"))
			code, ok := compileRecord(t, ctx, m, rec)
			if !ok {
				return
			}
			start := time.Now()
			c := BuildCFG(code)
			fns, err := RecoverFunctions(c, []byte(rec.ABI))
			if err != nil {
				t.Fatal(err)
			}
			took := time.Since(start)
			missing, truncated := 0, 0
			for _, fn := range fns {
				if !fn.Recovered {
					missing++
					t.Errorf("%s not recovered", fn.Signature)
				}
				if fn.Truncated {
					truncated++
					t.Logf("truncated %s: %+v, %d paths, %d blocks", fn.Signature, fn.Cuts, fn.Paths, len(fn.Blocks))
				}
			}
			t.Logf("%s: %d bytes, %d blocks, %d functions, %d missing, %d truncated, meta %d bytes, %v",
				rec.CompilerVersion, len(code), len(c.Blocks), len(fns), missing, truncated, len(c.Metadata), took)
		})
	}
}

type sourceRecord struct {
	SourceCode, ABI, ContractName, CompilerVersion, OptimizationUsed, Runs string
}

func readSourceRecord(t *testing.T, path string) sourceRecord {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var env struct{ Result json.RawMessage }
	if err := json.Unmarshal(raw, &env); err != nil {
		t.Fatal(err)
	}
	var rec sourceRecord
	if err := json.Unmarshal(env.Result, &rec); err != nil {
		var list []sourceRecord
		if err := json.Unmarshal(env.Result, &list); err != nil || len(list) == 0 {
			t.Fatalf("%s: unreadable result", path)
		}
		rec = list[0]
	}
	return rec
}

func compileRecord(t *testing.T, ctx context.Context, m *solc.Manager, rec sourceRecord) ([]byte, bool) {
	t.Helper()
	runs, _ := strconv.Atoi(rec.Runs)
	in := solc.Input{Compiler: rec.CompilerVersion, Optimize: rec.OptimizationUsed == "1", Runs: runs}
	if src := strings.TrimSpace(rec.SourceCode); strings.HasPrefix(src, "{") {
		in.StandardJSON = []byte(src)
	} else {
		in.Sources = map[string]string{rec.ContractName + ".sol": rec.SourceCode}
	}
	out, err := m.Compile(ctx, in)
	if err != nil {
		t.Skipf("compile: %v", err)
		return nil, false
	}
	c, err := out.Contract(rec.ContractName)
	if err != nil {
		t.Skipf("contract: %v", err)
		return nil, false
	}
	code, err := c.RuntimeCode(nil)
	if err != nil {
		t.Skipf("runtime code: %v", err)
		return nil, false
	}
	return code, true
}
