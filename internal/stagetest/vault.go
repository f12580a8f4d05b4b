package stagetest

import (
	"bytes"
	"strings"
	"testing"

	"github.com/solbehave/solbehave/internal/bytecode"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/solc"
	"github.com/solbehave/solbehave/pipeline"
)

// VaultID is the demo corpus's Vault, the contract of the paper's Figure 1.
const VaultID = "Vault_0x4c9fd16cf84c1405a1a54a415446860e67a41b37"

// The demo Vault's withdraw body and the two faulty ones the replay oracles
// must tell apart from it.
const (
	VaultWithdraw = `        require(initialized);
        require(balance >= amount);
        balance -= amount;`

	// Figure1Withdraw is Figure 1's regenerated withdraw: a silent no-op
	// before initialize, and no underflow guard (0.4.24 arithmetic wraps).
	Figure1Withdraw = `        if (!initialized) return;
        balance -= amount;`

	// NoBalanceCheckWithdraw drops the balance check alone: the fault
	// reachable only after initialize.
	NoBalanceCheckWithdraw = `        require(initialized);
        balance -= amount;`
)

// CompileReplacing compiles a single-file record's source with original
// replaced by replacement, stores the output and returns its artifact id.
// It fails the test when the source lacks original or the edit leaves the
// contract's runtime code as it was (its metadata tail aside): a variant
// that runs as the original does tests nothing.
func CompileReplacing(t testing.TB, env *pipeline.Env, rec *deploy.Record, original, replacement string) string {
	t.Helper()
	var file, source string
	for name, text := range rec.Files.Files {
		file, source = name, text
	}
	if len(rec.Files.Files) != 1 || !strings.Contains(source, original) {
		t.Fatalf("%s: no single source file holds %q", rec.Entry.ID, original)
	}
	id, variant := Compile(t, env, rec, map[string]string{file: strings.Replace(source, original, replacement, 1)})
	if _, orig := Compile(t, env, rec, nil); bytes.Equal(runtimeBody(t, rec, orig), runtimeBody(t, rec, variant)) {
		t.Fatalf("%s: replacing %q left the contract's runtime code unchanged", rec.Entry.ID, original)
	}
	return id
}

// runtimeBody is the runtime code of rec's contract in out without its
// metadata tail, which changes with any edit of the source text.
func runtimeBody(t testing.TB, rec *deploy.Record, out *solc.Output) []byte {
	t.Helper()
	c, err := rec.Target(out)
	if err != nil {
		t.Fatal(err)
	}
	code, err := c.RuntimeCode(nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := bytecode.SplitMetadata(code)
	return body
}
