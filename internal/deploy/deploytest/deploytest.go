// Package deploytest is the test kit of the engines that compile and deploy
// contracts (callseq, dcrextract, guardstate, fuzz, vuln): one solc manager
// per test binary, so compiler workers stay warm across a package's tests
// and are stopped after them, and compile and deploy steps that fail the
// test instead of returning an error.
package deploytest

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/solbehave/solbehave/internal/chain"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/solc"
	"github.com/solbehave/solbehave/internal/stagetest"
)

// Compiler is the test binary's solc manager, started on first use: the
// one stagetest's environments share, so a package that uses both kits
// starts one set of workers.
func Compiler() *solc.Manager { return stagetest.Compiler() }

// Main runs a package's tests, then stops the compiler's workers; call it
// from TestMain.
func Main(m *testing.M) { stagetest.Main(m) }

// Compile compiles in with the shared manager.
func Compile(t testing.TB, in solc.Input) *solc.Output {
	t.Helper()
	out, err := Compiler().Compile(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// LoadCompiled reads the record of contract id from corpus (its first budget
// transactions) and compiles its sources as recorded.
func LoadCompiled(t testing.TB, corpus string, budget int, id string) (*deploy.Record, *solc.Output) {
	t.Helper()
	rec := stagetest.LoadRecords(t, corpus, budget, id)[0]
	return rec, Compile(t, rec.CompileInput(nil))
}

// LoadMultiFile writes the multi-file fixture's corpus under a temporary
// folder and loads and compiles its record, as LoadCompiled does.
func LoadMultiFile(t testing.TB, budget int) (*deploy.Record, *solc.Output) {
	t.Helper()
	corpus := filepath.Join(t.TempDir(), "corpus")
	id := stagetest.WriteMultiFileCorpus(t, Compiler(), corpus)
	return LoadCompiled(t, corpus, budget, id)
}

// DeployTarget deploys the record's target contract from out as the oracles
// deploy the original: recorded deployer, nonce, block and arguments.
func DeployTarget(t testing.TB, rec *deploy.Record, out *solc.Output) *deploy.Deployment {
	t.Helper()
	target, err := rec.Target(out)
	if err != nil {
		t.Fatal(err)
	}
	dep, err := deploy.Deploy(rec, out, target, nil, chain.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return dep
}
