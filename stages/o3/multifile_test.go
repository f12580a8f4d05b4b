package o3

import (
	"testing"

	"github.com/solbehave/solbehave/internal/mutate"
	"github.com/solbehave/solbehave/internal/regen/regentest"
	"github.com/solbehave/solbehave/internal/stagetest"
)

// TestMultiFileBaseMutantsAcrossFiles: O3 and O4 on a multi-file source
// whose mutants change an inherited body in another file
// (BaseToken._transfer, in lib/fx/token/BaseToken.sol). Algorithm 1's
// transfers, accepted by the original, revert on the mutant whose
// zero-address check is negated: O3 flags it. The mutant without the check
// differs only on a transfer to the zero address, which these sequences
// never try (O2 catches it on the history); the reference of the whole
// chain agrees everywhere.
func TestMultiFileBaseMutantsAcrossFiles(t *testing.T) {
	env, rec := stagetest.MultiFileEnv(t, 1000)
	regentest.MultiFileSamples(t, env, rec, mutate.Relational)
	_, out := stagetest.Compile(t, env, rec, nil)
	writeSequences(t, env, rec, out, 60, "static")
	stagetest.RunStage(t, env, New())

	got := flagged(t, env)
	want := map[string][]string{"O3": {"mutant/1"}}
	if stagetest.JSON(got) != stagetest.JSON(want) {
		t.Fatalf("divergent samples per oracle:\n got %v\nwant %v", got, want)
	}
}
