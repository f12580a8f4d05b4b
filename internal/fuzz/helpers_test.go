package fuzz

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"

	"github.com/solbehave/solbehave/internal/chain"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/deploy/deploytest"
	"github.com/solbehave/solbehave/internal/solc"
	"github.com/solbehave/solbehave/internal/soltext"
	"github.com/solbehave/solbehave/internal/stagetest"
)

func TestMain(m *testing.M) { deploytest.Main(m) }

const demoCorpus = "../../data/corpus/demo"

// figure1Withdraw is the regenerated withdraw of the paper's Figure 1: a
// silent no-op before initialisation, and no balance check.
const figure1Withdraw = `function withdraw(uint256 amount) public {
        if (!initialized) return;
        balance -= amount;
    }`

// loadDemo reads a demo-corpus contract by name.
func loadDemo(tb testing.TB, name string) *deploy.Record {
	tb.Helper()
	return stagetest.LoadRecords(tb, demoCorpus, 200, name)[0]
}

// pair is an original and a sample deployed as the oracles deploy them.
type pair struct {
	rec          *deploy.Record
	orig, sample *deploy.Deployment
	source       string // the sample's source
}

// deployPair compiles the record's source and a sample made by edit (nil:
// the source unchanged, a reference sample) and deploys both.
func deployPair(tb testing.TB, rec *deploy.Record, edit func(string) string) *pair {
	tb.Helper()
	file, src := onlyFile(tb, rec)
	origOut := compileCached(tb, rec, file, src)
	sampleSrc := src
	if edit != nil {
		sampleSrc = edit(src)
		if sampleSrc == src {
			tb.Fatal("the edit changed nothing")
		}
	}
	sampleOut := compileCached(tb, rec, file, sampleSrc)
	orig := deploytest.DeployTarget(tb, rec, origOut)
	sample, err := deploy.DeploySample(rec, orig, sampleOut, chain.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return &pair{rec: rec, orig: orig, sample: sample, source: sampleSrc}
}

var (
	compiledMu sync.Mutex
	compiled   = map[string]*solc.Output{}
)

// compileCached compiles each distinct source once per test binary: on a
// busy machine a solc run takes seconds.
func compileCached(tb testing.TB, rec *deploy.Record, file, src string) *solc.Output {
	tb.Helper()
	compiledMu.Lock()
	defer compiledMu.Unlock()
	key := rec.Entry.ID + "\x00" + src
	if out := compiled[key]; out != nil {
		return out
	}
	out := deploytest.Compile(tb, rec.CompileInput(map[string]string{file: src}))
	compiled[key] = out
	return out
}

func onlyFile(tb testing.TB, rec *deploy.Record) (string, string) {
	tb.Helper()
	if len(rec.Files.Files) != 1 {
		tb.Fatalf("want a single-file source, got %d files", len(rec.Files.Files))
	}
	for f, s := range rec.Files.Files {
		return f, s
	}
	return "", ""
}

// replaceFunction swaps the function whose header starts with header for body.
func replaceFunction(tb testing.TB, src, header, body string) string {
	tb.Helper()
	start := strings.Index(src, header)
	if start < 0 {
		tb.Fatalf("no %q in the source", header)
	}
	end, ok := soltext.MatchBrace(src, start+strings.Index(src[start:], "{"))
	if !ok {
		tb.Fatalf("unbalanced braces after %q", header)
	}
	return src[:start] + body + src[end+1:]
}

func figure1Vault(tb testing.TB) *pair {
	return deployPair(tb, loadDemo(tb, "Vault"), func(src string) string {
		return replaceFunction(tb, src, "function withdraw(", figure1Withdraw)
	})
}

// config is the campaign configuration the stage would use for p.
func (p *pair) config(seed uint64) Config {
	dict := NewDictionaryFrom(Seeds{
		Actors:  []common.Address{p.orig.Deployer, p.orig.Address},
		Encoded: [][]byte{p.orig.Args},
		Storage: p.orig.Result.StorageWrites,
		Sources: []string{p.source},
		Code:    [][]byte{p.orig.Chain.Code(p.orig.Address), p.sample.Chain.Code(p.sample.Address)},
	})
	return Config{Seed: seed, Sender: p.orig.Deployer, Block: p.orig.Block, Dictionary: dict}
}

func (p *pair) targets() (Target, Target) {
	return Target{Chain: p.orig.Chain, Address: p.orig.Address}, Target{Chain: p.sample.Chain, Address: p.sample.Address}
}

// fuzz runs one campaign of m on p's original against its sample, failing
// the test on an error.
func (p *pair) fuzz(tb testing.TB, m abi.Method, cfg Config) *Report {
	tb.Helper()
	ref, sample := p.targets()
	rep, err := Differential(context.Background(), ref, sample, m, cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return rep
}

// counterexample fuzzes p's function name with seed 42 and fails the test
// unless the campaign ends with a counterexample.
func (p *pair) counterexample(tb testing.TB, name string) (*Report, abi.Method) {
	tb.Helper()
	m := p.method(tb, name)
	rep := p.fuzz(tb, m, p.config(42))
	if rep.Equivalent || rep.Counterexample == nil {
		tb.Fatalf("%s was found equivalent after %d calls", m.Sig, rep.Calls)
	}
	return rep, m
}

func (p *pair) method(tb testing.TB, name string) abi.Method {
	tb.Helper()
	m, ok := p.orig.ABI.Methods[name]
	if !ok {
		tb.Fatalf("no method %s", name)
	}
	return m
}
