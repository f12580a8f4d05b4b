package verify

import (
	"bufio"
	"context"
	"os"
	"regexp"
	"strconv"
	"testing"

	"github.com/solbehave/solbehave/internal/soltext"
	"github.com/solbehave/solbehave/internal/stagetest"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

const (
	sharedCorpus = "../../../shared/corpus/mainnet"
	fieldNotes   = "../../../shared/FIELD-NOTES.md"
)

// floor reads the plain-replay results per contract from the field notes
// ("| AWNEX | v0.8.0 | 198/200 | 13 |"): the reproduced count to beat.
func floor(t *testing.T) map[string]int {
	f, err := os.Open(fieldNotes)
	if err != nil {
		t.Skip("../shared/FIELD-NOTES.md is absent")
	}
	defer f.Close()
	row := regexp.MustCompile(`^\| (\w+) \| [^|]* \| (\d+)/200 \|`)
	out := map[string]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if m := row.FindStringSubmatch(sc.Text()); m != nil {
			out[m[1]], _ = strconv.Atoi(m[2])
		}
	}
	return out
}

// TestMainnetCorpusBeatsThePlainReplayFloor runs verify on the 44 real
// contracts: at least as many kept as the plain replay (29), at least as many
// transactions reproduced per contract, and a reason for every one not kept.
func TestMainnetCorpusBeatsThePlainReplayFloor(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the mainnet corpus takes minutes")
	}
	if _, err := os.Stat(sharedCorpus); err != nil {
		t.Skip("../shared/corpus/mainnet is absent: skipping the mainnet acceptance run")
	}
	want := floor(t)
	env := stagetest.IsolatedEnv(t, sharedCorpus)
	stagetest.Run(t, env, New())
	rows := stagetest.Rows(t, env, schemas.Reproducibility)
	kept := 0
	for _, r := range rows {
		if r.Kept {
			kept++
		} else if r.Reason == "" || r.ReasonClass == "" {
			t.Errorf("%s is not kept and has no reason", r.Name)
		}
		if n, ok := want[r.Name]; ok && int(r.Reproduced) < n {
			t.Errorf("%s: %d/200 reproduced, below the plain replay's %d (%s: %s)", r.Name, r.Reproduced, n, r.ReasonClass, r.Reason)
		}
	}
	t.Logf("kept %d of %d (plain replay: 29)", kept, len(rows))
	if len(rows) != 44 || kept < 29 {
		t.Fatalf("kept %d of %d, want at least 29 of 44", kept, len(rows))
	}
}

// TestLexerChainCountAgreesOnMainnet: on every one of the 44 mainnet
// contracts, the chain count the crawl reads from the recorded source with
// the lexer (no compiler) equals the one verify takes from the compiled
// AST, so Figure 2's two stages count the same thing. A contract whose
// original does not compile has no compiled count and fails the test.
func TestLexerChainCountAgreesOnMainnet(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: compiling the mainnet corpus takes minutes")
	}
	if _, err := os.Stat(sharedCorpus); err != nil {
		t.Skip("../shared/corpus/mainnet is absent")
	}
	engines := &pipeline.Engines{}
	defer engines.Close()
	recs := stagetest.LoadRecords(t, sharedCorpus, 0)
	var above20, abiAbove20 int
	for _, rec := range recs {
		out, err := engines.Solc().Compile(context.Background(), rec.CompileInput(nil))
		if err != nil {
			t.Errorf("%s: compile: %v", rec.Name(), err)
			continue
		}
		target, err := rec.Target(out)
		if err != nil {
			t.Errorf("%s: %v", rec.Name(), err)
			continue
		}
		n := countFunctions(target, functionRows(rec.Entry.ID, out, target, rec.Files.Files))
		lexed, err := soltext.ChainCount(rec.Files.Files, rec.Name())
		if err != nil || lexed != n.nontrivial {
			t.Errorf("%s: the lexer counts %d (%v), the compiled chain %d", rec.Name(), lexed, err, n.nontrivial)
		}
		if n.nontrivial > 20 {
			above20++
		}
		if n.stateChangingABI > 20 {
			abiAbove20++
		}
		t.Logf("%-24s chain %3d  ABI state-changing %3d", rec.Name(), n.nontrivial, n.stateChangingABI)
	}
	t.Logf("%d contracts, %d above 20 by the chain count, %d by the ABI's", len(recs), above20, abiAbove20)
	if len(recs) != 44 {
		t.Fatalf("%d mainnet contracts, want 44", len(recs))
	}
}
