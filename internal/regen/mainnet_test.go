package regen

import (
	"bytes"
	"context"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi"

	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/skeleton"
	"github.com/solbehave/solbehave/internal/solast"
	"github.com/solbehave/solbehave/internal/solc"
	"github.com/solbehave/solbehave/internal/soltext"
)

const mainnetCorpus = "../../../shared/corpus/mainnet"

// TestReferenceCompilesOnMainnet: on every real contract whose original
// compiles, the reference sample compiles too, with the original's ABI.
func TestReferenceCompilesOnMainnet(t *testing.T) {
	recs := mainnetRecords(t)
	ref := reference{}
	checked := 0
	for _, rec := range recs {
		e := rec.Entry
		out, err := compileOriginal(rec)
		if err != nil {
			t.Logf("%s: the original does not compile (%v): not a candidate", e.Name, err)
			continue
		}
		orig, target, err := OriginalOf(rec, out)
		if err != nil {
			t.Errorf("%s: %v", e.Name, err)
			continue
		}
		sk, err := skeleton.Build(orig.SkeletonInput(target, ""), nil)
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
	}
	t.Logf("reference compiled for %d contracts", checked)
	if checked < 29 {
		t.Fatalf("only %d contracts checked, want at least the 29 kept ones", checked)
	}
}

// mainnetRecords loads the mainnet corpus's records, sorted by compiler
// version (fewer compiler workers to start), or skips.
func mainnetRecords(t *testing.T) []*deploy.Record {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: the mainnet corpus takes minutes")
	}
	if _, err := os.Stat(mainnetCorpus); err != nil {
		t.Skip("../shared/corpus/mainnet is absent: skipping the mainnet check")
	}
	demoFixtures(t) // starts the compiler manager
	c, err := deploy.OpenCorpus(mainnetCorpus)
	if err != nil {
		t.Fatal(err)
	}
	var recs []*deploy.Record
	for _, e := range c.Entries {
		if rec, err := c.Load(e, 0); err == nil {
			recs = append(recs, rec)
		}
	}
	sort.SliceStable(recs, func(i, j int) bool { return recs[i].Source.CompilerVersion < recs[j].Source.CompilerVersion })
	return recs
}

// abiNontrivial counts a contract's state-changing ABI methods, as verify's
// n_state_changing_abi does.
func abiNontrivial(t *testing.T, raw []byte) int {
	parsed, err := abi.JSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range parsed.Methods {
		if !m.IsConstant() {
			n++
		}
	}
	return n
}

// TestChainCoversNontrivialOnMainnet: on every mainnet contract whose
// original compiles (the kept ones among them), the chain skeleton
// regenerates at least as many non-trivial bodies as the contract has
// non-trivial ABI functions (the size filter's count), and more bodies than
// the target alone wherever the target inherits code; the lexer's chain
// (soltext.Chain, for source that is not compiled) is solc's
// linearisation. Skeletons only: no generation.
func TestChainCoversNontrivialOnMainnet(t *testing.T) {
	checked, chainTotal, targetTotal := 0, 0, 0
	for _, rec := range mainnetRecords(t) {
		out, err := compileOriginal(rec)
		if err != nil {
			continue // not a candidate: verify drops it
		}
		orig, target, err := OriginalOf(rec, out)
		if err != nil {
			t.Errorf("%s: %v", rec.Entry.Name, err)
			continue
		}
		in := orig.SkeletonInput(target, "")
		chain, err := skeleton.Build(in, nil)
		if err != nil {
			t.Errorf("%s: %v", rec.Entry.Name, err)
			continue
		}
		in.Scope = skeleton.ScopeTarget
		own, err := skeleton.Build(in, nil)
		if err != nil {
			t.Errorf("%s: %v", rec.Entry.Name, err)
			continue
		}
		c, err := out.Contract(target)
		if err != nil {
			t.Errorf("%s: %v", rec.Entry.Name, err)
			continue
		}
		want := abiNontrivial(t, c.ABI)
		if chain.Nontrivial() < want {
			t.Errorf("%s: %d non-trivial bodies regenerated, the ABI has %d non-trivial functions", rec.Entry.Name, chain.Nontrivial(), want)
		}
		if len(chain.Holes()) < len(own.Holes()) {
			t.Errorf("%s: chain regenerates %d bodies, fewer than the target's %d", rec.Entry.Name, len(chain.Holes()), len(own.Holes()))
		}
		if lexed, solc := lexerChain(orig, target), astChain(orig, target); lexed != solc {
			t.Errorf("%s: the lexer's chain %s, solc's %s", rec.Entry.Name, lexed, solc)
		}
		t.Logf("%s: bodies chain %d (non-trivial %d) / target %d; ABI non-trivial %d", rec.Entry.Name, len(chain.Holes()), chain.Nontrivial(), len(own.Holes()), want)
		checked++
		chainTotal += len(chain.Holes())
		targetTotal += len(own.Holes())
	}
	t.Logf("%d contracts: %d bodies under chain, %d under target", checked, chainTotal, targetTotal)
	if checked < 29 {
		t.Fatalf("only %d contracts checked, want at least the 29 kept ones", checked)
	}
}

// lexerChain is soltext.Chain's linearisation as file:name.
func lexerChain(orig *Original, target string) string {
	chain, err := soltext.Chain(orig.Files, orig.File, target)
	if err != nil {
		return err.Error()
	}
	names := make([]string, len(chain))
	for i, l := range chain {
		names[i] = l.File + ":" + l.Name
	}
	return strings.Join(names, ",")
}

// astChain is solc's linearizedBaseContracts of target as file:name.
func astChain(orig *Original, target string) string {
	byID := map[int]string{}
	var ids []any
	for file, root := range orig.ASTs {
		for _, c := range solast.Contracts(root) {
			byID[c.Node.ID] = file + ":" + c.Name
			if c.Name == target && file == orig.File {
				ids, _ = c.Node.Attrs["linearizedBaseContracts"].([]any)
			}
		}
	}
	names := make([]string, len(ids))
	for i, id := range ids {
		names[i] = byID[int(id.(float64))]
	}
	return strings.Join(names, ",")
}

// originals holds each mainnet original's compile result by contract id:
// both mainnet tests read it, and a mainnet compile takes seconds.
var originals sync.Map

type compiled struct {
	out *solc.Output
	err error
}

// compileOriginal compiles rec's original as recorded, once per test binary.
func compileOriginal(rec *deploy.Record) (*solc.Output, error) {
	if c, ok := originals.Load(rec.Entry.ID); ok {
		return c.(compiled).out, c.(compiled).err
	}
	out, err := compileRecord(rec, nil)
	originals.Store(rec.Entry.ID, compiled{out, err})
	return out, err
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
