package dcr

import (
	"slices"
	"testing"

	"github.com/solbehave/solbehave/internal/stagetest"
	"github.com/solbehave/solbehave/schemas"
)

// The demo corpus's OpenZeppelin 5.0.1 token: a standard-JSON source whose
// ERC-20 core, Ownable and Pausable live in other files.
const harborID = "HarborToken_0xfa3f3eb8693bde19aa8dc37f68c0dac5fcf0981e"

// TestStaticStageAcrossFiles: the stage's static graph of a multi-file
// contract has an event for every function the chain inherits from other
// files (ERC20.sol's transfer, Ownable.sol's transferOwnership), and reads
// the pause switch across three files: HarborToken's pause and unpause
// flip Pausable.sol's _paused, which the whenNotPaused modifier (Pausable.sol)
// on HarborToken's _update override checks when ERC20.sol's transfer and
// transferFrom and HarborToken's mint reach it.
func TestStaticStageAcrossFiles(t *testing.T) {
	env := keptEnv(t, harborID)
	s := New()
	s.Annotations = ""
	if c := stagetest.Run(t, env, s); c.Failed != 0 || c.Ran != 1 {
		t.Fatalf("counters %+v", c)
	}
	var functions []string
	for _, e := range stagetest.Rows(t, env, schemas.DCREvents) {
		if e.Branch == "success" {
			functions = append(functions, e.Function)
		}
	}
	slices.Sort(functions)
	want := []string{"approve", "mint", "pause", "renounceOwnership", "transfer", "transferFrom", "transferOwnership", "unpause"}
	if !slices.Equal(functions, want) {
		t.Errorf("success events %v\nwant %v", functions, want)
	}
	got := map[string]bool{}
	for _, r := range stagetest.Rows(t, env, schemas.DCRRelations) {
		got[r.Type+" "+r.SourceKey+" "+r.TargetKey] = true
	}
	for _, fn := range []string{"transfer", "transferFrom", "mint"} {
		for _, rel := range []string{"exclude pause.success " + fn + ".success", "include unpause.success " + fn + ".success"} {
			if !got[rel] {
				t.Errorf("no relation %q", rel)
			}
		}
	}
}
