package o1

import (
	"bytes"
	"context"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/solbehave/solbehave/internal/artifact"
	"github.com/solbehave/solbehave/internal/fuzz"
	"github.com/solbehave/solbehave/internal/stagetest"
	"github.com/solbehave/solbehave/internal/subjects"
	"github.com/solbehave/solbehave/schemas"
)

// TestSameCodeIsNotFuzzed: samples whose deployment is the original's but
// for the metadata tail (the original's own code, and its source with one
// more comment, whose tail hashes another source) are equivalent on every
// function without a call; fuzzing them finds them equivalent too, so the
// verdict is the one fuzzing gives. A sample whose code differs is fuzzed.
func TestSameCodeIsNotFuzzed(t *testing.T) {
	env := stagetest.NewEnv(t, stagetest.DemoCorpus)
	rec := loadDemo(t, "GiftToken")
	origID := compile(t, env, rec, nil)
	commentID := compile(t, env, rec, func(src string) string { return "// regenerated\n" + src })
	variantID := equivalentVariant(t, env, rec)
	samples := []schemas.Sample{stagetest.Sample("reference", 0, origID, ""), stagetest.Sample("reference", 1, commentID, ""),
		stagetest.Sample("reference", 2, variantID, "")}
	stagetest.WriteInputs(t, env, rec.Entry.ID, origID, samples)
	s := New()
	s.Calls = 500
	stagetest.RunStage(t, env, s)
	results, _ := readResults(t, env)
	if len(results) == 0 {
		t.Fatal("no fuzz_results rows")
	}
	for _, r := range results {
		same := r.Sample < 2
		switch {
		case !r.Equivalent:
			t.Errorf("sample %d %s: non-equivalent (stop %s)", r.Sample, r.Signature, r.StopReason)
		case same && (r.StopReason != schemas.StopSameCode || r.Calls != 0 || r.CoverageRef != 0):
			t.Errorf("sample %d %s: stop %s after %d calls, want same_code without a call", r.Sample, r.Signature, r.StopReason, r.Calls)
		case !same && (r.StopReason != fuzz.StopBudget || r.Calls != int64(s.Calls)):
			t.Errorf("variant %s: stop %s after %d calls, want the whole budget", r.Signature, r.StopReason, r.Calls)
		}
	}

	// What fuzzing would have said of the samples not fuzzed.
	orig, deployed, err := subjects.DeployAll(artifact.New(env.Data), rec, origID, samples[:2])
	if err != nil {
		t.Fatal(err)
	}
	for i, d := range deployed {
		if a, b := orig.Chain.Code(orig.Address), d.Deployment.Chain.Code(orig.Address); i == 1 && bytes.Equal(a, b) {
			t.Fatal("the commented source compiled to the very same code: the test needs another metadata tail")
		}
		for _, m := range fuzz.FuzzableMethods(orig.ABI) {
			rep, err := fuzz.Differential(context.Background(), target(orig), target(d.Deployment), m,
				fuzz.Config{Calls: s.Calls, Seed: seedFor(env.Seed, m.Sig), Sender: orig.Deployer, Block: orig.Block})
			if err != nil || !rep.Equivalent {
				t.Errorf("sample %d %s: fuzzing says equivalent=%v (%v)", i, m.Sig, rep != nil && rep.Equivalent, err)
			}
		}
	}
}

// sameRuntime looks past the metadata tail only where no instruction could
// read it.
func TestSameRuntime(t *testing.T) {
	tail := func(b byte) string { // a0.5-style tail: bzzr0 hash, 0x0029 long
		return "a165627a7a72305820" + strings.Repeat(hex.EncodeToString([]byte{b}), 32) + "0029"
	}
	code := func(s string) []byte {
		b, err := hex.DecodeString(s)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	const body = "6080604052600080fd00"          // PUSH1 80 PUSH1 40 MSTORE PUSH1 0 DUP1 REVERT STOP
	const reads = "6080604052602060006000390000" // ... PUSH1 20 PUSH1 0 PUSH1 0 CODECOPY STOP STOP
	for _, c := range []struct {
		name string
		a, b string
		want bool
	}{
		{"same code", body + tail(1), body + tail(1), true},
		{"other tail", body + tail(1), body + tail(2), true},
		{"other body", body + tail(1), "6080604052600180fd00" + tail(1), false},
		{"a CODECOPY could read the tail", reads + tail(1), reads + tail(2), false},
		{"no tail, same code", body, body, true},
		{"no tail on one side", body + tail(1), body, false},
		{"no code", "", "", false},
	} {
		if got := sameRuntime(code(c.a), code(c.b)); got != c.want {
			t.Errorf("%s: sameRuntime = %v, want %v", c.name, got, c.want)
		}
	}
}
