package o1

import (
	"strings"
	"testing"
	"time"

	"github.com/solbehave/solbehave/internal/regen/regentest"
	"github.com/solbehave/solbehave/internal/stagetest"
	"github.com/solbehave/solbehave/internal/subjects"
)

// TestMultiFileBaseMutant: on a multi-file contract, O1 pairs every
// fuzzable function of the chain, inherited ones from other files included
// (the ABI's); the mutant whose one mutation is in BaseToken._transfer (in
// lib/fx/token/BaseToken.sol) is non-equivalent on the functions that reach
// it, the reference equivalent everywhere; and the dictionary reads every
// file of a sample, not its target file alone.
func TestMultiFileBaseMutant(t *testing.T) {
	env, rec := stagetest.MultiFileEnv(t, historyLimit)
	regentest.MultiFileSamples(t, env, rec)

	samples, err := subjects.CompilingSamples(env.Warehouse)
	if err != nil {
		t.Fatal(err)
	}
	srcs := strings.Join(sampleSources(env.Data, samples[rec.Entry.ID][0]), "\n")
	if !strings.Contains(srcs, "abstract contract BaseToken") || !strings.Contains(srcs, "abstract contract Owned") {
		t.Fatal("the dictionary's sample sources leave out the bases' files")
	}

	s := New()
	s.Calls, s.Timeout = 400, time.Minute
	stagetest.RunStage(t, env, s)
	results, _ := readResults(t, env)
	diverged := map[string]bool{}
	fns := map[string]bool{}
	for _, r := range results {
		fns[r.Function] = true
		if !r.Equivalent {
			diverged[r.Model+":"+r.Function] = true
		}
	}
	for _, f := range []string{"transfer", "transferFrom", "approve", "transferOwnership", "mint", "burn", "setPaused"} {
		if !fns[f] {
			t.Errorf("no O1 pair for %s", f)
		}
	}
	if !diverged["mutant:transfer"] || len(diverged) == 0 {
		t.Errorf("non-equivalent pairs %v, want the mutant's transfer", diverged)
	}
	for k := range diverged {
		if strings.HasPrefix(k, "reference:") {
			t.Errorf("reference non-equivalent on %s", k)
		}
	}
}
