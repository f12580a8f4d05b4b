package release

import (
	"context"
	"strings"
	"testing"

	"github.com/solbehave/solbehave/pipeline"
)

// A unit of a recorded run whose stage has no parameter (the report) was
// not "made before parameters were recorded".
func TestCardCountsOnlyUnitsBeforeParameterRecords(t *testing.T) {
	for _, tc := range []struct {
		m    pipeline.Manifest
		note bool
	}{
		{pipeline.Manifest{Stage: "report", Unit: "report", Run: "r1"}, false},
		{pipeline.Manifest{Stage: "o2", Unit: "c"}, true},
	} {
		p := &Publisher{manifests: []pipeline.Manifest{tc.m}}
		var b strings.Builder
		if err := p.parametersSection(context.Background(), nil, &b); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(b.String(), "made before parameters were recorded"); got != tc.note {
			t.Errorf("%+v: note %v, want %v:\n%s", tc.m, got, tc.note, b.String())
		}
	}
}
