package pipeline

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/schemas"
)

// settingStage plans its units under one setting ("<contract>/<setting>")
// and, when scoped, claims only that setting's units.
type settingStage struct {
	countingStage
	setting string
	scoped  bool
}

func (s *settingStage) InScope(unitID string) bool {
	return !s.scoped || strings.HasSuffix(unitID, "/"+s.setting)
}

// A Scoped stage's run of one setting leaves the other setting's outputs;
// without the scope they are removed as orphans.
func TestScopedStageKeepsOtherSettingsUnits(t *testing.T) {
	for _, scoped := range []bool{true, false} {
		env := testEnv(t, 1)
		r := &Runner{Env: env}
		for _, setting := range []string{"a", "b"} {
			s := &settingStage{countingStage: countingStage{n: 2, id: func(i int) string { return fmt.Sprintf("C%d/%s", i, setting) }},
				setting: setting, scoped: scoped}
			var stage Stage = s
			if !scoped {
				stage = &s.countingStage
			}
			if _, err := r.Run(context.Background(), stage); err != nil {
				t.Fatal(err)
			}
		}
		rows, err := warehouse.ReadDataset(env.Warehouse, schemas.Errors)
		if err != nil {
			t.Fatal(err)
		}
		want := 2
		if scoped {
			want = 4
		}
		if len(rows) != want {
			t.Errorf("scoped=%v: %d units' rows left after runs of a then b, want %d", scoped, len(rows), want)
		}
	}
}
