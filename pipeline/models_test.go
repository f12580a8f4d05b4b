package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/solbehave/solbehave/internal/atomicfile"
)

// modelStage is a countingStage whose units are "<contract>/<model>" of the
// models it names, scoped the way generate is (see NameScope).
type modelStage struct {
	countingStage
	models []string
	scope  *NameScope
}

func (s *modelStage) Plan(context.Context, *Env) ([]Unit, error) {
	s.scope = NewNameScope(s.models...)
	s.scope.Contracts["C"] = true
	var units []Unit
	for _, m := range s.models {
		units = append(units, Unit{ID: "C/" + m, Contract: "C", Model: m, Fingerprint: "f"})
	}
	return units, nil
}

func (s *modelStage) InScope(id string) bool { return s.scope.Covers(id) }

// A run of one model leaves another model's units; forget removes one
// model's units, manifests and parts and nothing else.
func TestRunsAddAndForgetRemovesOneModel(t *testing.T) {
	env := testEnv(t, 1)
	r := &Runner{Env: env}
	for _, models := range [][]string{{"a"}, {"b"}} {
		if _, err := r.Run(context.Background(), &modelStage{models: models}); err != nil {
			t.Fatal(err)
		}
	}
	if got, _ := Models(env.Data); strings.Join(got, ",") != "a,b" {
		t.Fatalf("models after runs of a then b: %v", got)
	}
	rm, err := PlanForget(env.Data, "a")
	if err != nil || rm.Units["counting"] != 1 || len(rm.Parts) != 1 {
		t.Fatalf("forget a would remove %+v (%v)", rm, err)
	}
	if err := Forget(env.Data, rm); err != nil {
		t.Fatal(err)
	}
	if got, _ := Models(env.Data); strings.Join(got, ",") != "b" {
		t.Fatalf("models after forget a: %v", got)
	}
	if _, err := os.Stat(filepath.Join(env.Warehouse.Root, rm.Parts[0])); !os.IsNotExist(err) {
		t.Errorf("the forgotten part is still there: %v", err)
	}
	if p, _ := readPlan(env.Data, "counting"); p == nil || len(p.Units) != 1 || p.Units["C/b"].Model != "b" {
		t.Errorf("the plan after forget a: %+v", p)
	}
}

// A write a killed run left half done is removed when its unit runs again.
func TestLeftoverTempFilesRemoved(t *testing.T) {
	env := testEnv(t, 1)
	s := &countingStage{n: 1}
	units, _ := s.Plan(context.Background(), env)
	part := partPath(env.Warehouse, "errors", s.Name(), units[0], 0)
	if err := os.MkdirAll(filepath.Dir(part), 0o755); err != nil {
		t.Fatal(err)
	}
	left := filepath.Join(filepath.Dir(part), strings.Replace(atomicfile.TempPattern(filepath.Base(part)), "*", "123", 1))
	if err := os.WriteFile(left, []byte("half"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := (&Runner{Env: env}).Run(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(left); !os.IsNotExist(err) {
		t.Errorf("the killed write's temporary file is still there: %v", err)
	}
}
