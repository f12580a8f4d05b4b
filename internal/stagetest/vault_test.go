package stagetest_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/solbehave/solbehave/internal/stagetest"
)

// TestCompileReplacingRefusesAnEditThatRunsTheSame: replacing the Vault's
// withdraw with Figure 1's is a variant; adding a comment to it changes the
// source text and the metadata tail but not the code, and fails the test.
func TestCompileReplacingRefusesAnEditThatRunsTheSame(t *testing.T) {
	env := stagetest.IsolatedEnv(t, stagetest.DemoCorpus)
	rec := stagetest.LoadRecords(t, stagetest.DemoCorpus, 10, stagetest.VaultID)[0]
	stagetest.CompileReplacing(t, env, rec, stagetest.VaultWithdraw, stagetest.Figure1Withdraw)

	rt := &fatalRecorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		stagetest.CompileReplacing(rt, env, rec, stagetest.VaultWithdraw, stagetest.VaultWithdraw+" // the same code")
	}()
	<-done
	if rt.msg == "" {
		t.Fatal("a comment-only edit was taken as a variant")
	}
	if !strings.Contains(rt.msg, "runtime code unchanged") {
		t.Fatalf("refused for another reason than the unchanged code: %s", rt.msg)
	}
	t.Logf("refused: %s", rt.msg)
}

// fatalRecorder is a testing.TB whose Fatal ends only the goroutine that
// called it, keeping the message.
type fatalRecorder struct {
	testing.TB
	msg string
}

func (r *fatalRecorder) Helper() {}

func (r *fatalRecorder) Fatal(args ...any) { r.msg = fmt.Sprint(args...); runtime.Goexit() }

func (r *fatalRecorder) Fatalf(format string, args ...any) {
	r.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}
