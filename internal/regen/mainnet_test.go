package regen

import (
	"context"
	"os"
	"sort"
	"testing"
	"time"

	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/etherscan"
	"github.com/solbehave/solbehave/internal/skeleton"
	"github.com/solbehave/solbehave/internal/solc"
)

const mainnetCorpus = "../../../shared/corpus/mainnet"

// TestReferenceCompilesOnMainnet: on every real contract whose original
// compiles, the reference sample compiles too, with the original's ABI.
// The stubbed skeletons that do not compile are logged with their reason.
func TestReferenceCompilesOnMainnet(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the mainnet corpus takes minutes")
	}
	if _, err := os.Stat(mainnetCorpus); err != nil {
		t.Skip("../shared/corpus/mainnet is absent: skipping the mainnet reference check")
	}
	demoFixtures(t) // starts the compiler manager
	client, err := etherscan.NewRecorded(mainnetCorpus)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := etherscan.ListCorpus(mainnetCorpus)
	if err != nil {
		t.Fatal(err)
	}
	var recs []*deploy.Record
	for _, e := range entries {
		if rec, err := deploy.Load(client, e, 0); err == nil {
			recs = append(recs, rec)
		}
	}
	// one compiler version after another: fewer compiler workers to start
	sort.SliceStable(recs, func(i, j int) bool { return recs[i].Source.CompilerVersion < recs[j].Source.CompilerVersion })
	ref := reference{}
	checked, stubsOK := 0, 0
	for _, rec := range recs {
		e := rec.Entry
		out, err := compileRecord(rec, nil)
		if err != nil {
			t.Logf("%s: the original does not compile (%v): not a candidate", e.Name, err)
			continue
		}
		orig, target, err := OriginalOf(rec, out)
		if err != nil {
			t.Errorf("%s: %v", e.Name, err)
			continue
		}
		sk, err := skeleton.Build(skeleton.Input{Files: orig.Files, File: orig.File, Target: target, AST: orig.Root}, nil)
		if err != nil {
			t.Errorf("%s: skeleton: %v", e.Name, err)
			continue
		}
		r := ref.Generate(context.Background(), Task{ContractID: e.ID, Skeleton: sk, Original: orig})
		got, err := compileRecord(rec, r.Files)
		if err != nil {
			t.Errorf("%s: reference does not compile: %v", e.Name, err)
			continue
		}
		a, _ := out.Contract(target)
		b, err := got.Contract(target)
		if err != nil || string(a.ABI) != string(b.ABI) {
			t.Errorf("%s: reference ABI differs from the original's", e.Name)
		}
		checked++
		t.Logf("%s (%s): reference compiles", e.Name, rec.Source.CompilerVersion)
		if _, err := compileRecord(rec, sk.Sources(sk.Stubbed())); err != nil {
			t.Logf("%s: stubbed skeleton does not compile: %v", e.Name, err)
		} else {
			stubsOK++
		}
	}
	t.Logf("reference compiled for %d contracts; stubbed skeleton compiled for %d", checked, stubsOK)
	if checked < 29 {
		t.Fatalf("only %d contracts checked, want at least the 29 kept ones", checked)
	}
}

func compileRecord(rec *deploy.Record, files map[string]string) (*solc.Output, error) {
	in := rec.CompileInput(nil)
	if files != nil {
		var err error
		if in, err = CompileInput(rec, files); err != nil {
			return nil, err
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	return mgr.Compile(ctx, in)
}
