package pipeline

import (
	"context"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/solbehave/solbehave/internal/warehouse"
	"github.com/solbehave/solbehave/schemas"
)

// rowStage has one unit per contract. A unit's fingerprint covers param and
// the rows of the dataset from that the plan sees for its contract; it
// writes one row into out.
type rowStage struct {
	name, param string
	from, out   schemas.Table[schemas.ErrorRow]
}

var (
	rowContracts     = []string{"A_0x01", "B_0x02"}
	upRows, downRows = schemas.Scratch[schemas.ErrorRow]("up_rows"), schemas.Scratch[schemas.ErrorRow]("down_rows")
)

func (s *rowStage) Name() string             { return s.name }
func (s *rowStage) Summary() string          { return "test stage" }
func (s *rowStage) Version() string          { return "1" }
func (s *rowStage) BindFlags(*pflag.FlagSet) {}
func (s *rowStage) Plan(_ context.Context, env *Env) ([]Unit, error) {
	var units []Unit
	for _, c := range rowContracts {
		seen, err := s.upstream(env, c)
		if err != nil {
			return nil, err
		}
		units = append(units, Unit{ID: c, Contract: c, Fingerprint: Fingerprint(s.param, seen), Payload: seen})
	}
	return units, nil
}

// upstream is what the stage reads of from for one contract.
func (s *rowStage) upstream(env *Env, contract string) ([]string, error) {
	if s.from.Name() == "" {
		return nil, nil
	}
	rows, err := warehouse.ReadDataset(env.Warehouse, s.from)
	var seen []string
	for _, r := range rows {
		if r.ContractID == contract {
			seen = append(seen, r.Message)
		}
	}
	return seen, err
}

func (s *rowStage) Run(_ context.Context, _ *Env, u Unit) (*Output, error) {
	out := &Output{}
	msg := s.param + "<" + strings.Join(u.Payload.([]string), ",")
	Add(out, s.out, []schemas.ErrorRow{{Stage: s.name, Unit: u.ID, ContractID: u.Contract, Message: msg}})
	return out, nil
}

// selected counts the parts of a dataset that the views read.
func selected(t *testing.T, env *Env, dataset string) int {
	t.Helper()
	w, err := Selection(env.Warehouse.Root)
	if err != nil {
		t.Fatal(err)
	}
	files, err := w.Files(dataset)
	if err != nil {
		t.Fatal(err)
	}
	return len(files)
}

func runStage(t *testing.T, r *Runner, s Stage) Counters {
	t.Helper()
	c, err := r.Run(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func survey(t *testing.T, r *Runner, stages ...Stage) map[string]Status {
	t.Helper()
	surveys, err := r.Survey(context.Background(), stages, func(Stage) bool { return true }, true)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]Status{}
	for _, sv := range surveys {
		if sv.Err != nil {
			t.Fatal(sv.Err)
		}
		out[sv.Stage.Name()] = r.Status(sv.Stage, sv.Units)
	}
	return out
}

// TestStaleRowsLeaveTheViews: after an upstream stage runs again with
// another parameter, the downstream units that read its old rows are
// stale: status says so and the views no longer read their parts, which
// stay on disk. A stale upstream stage that did not run hides its rows from
// the downstream plans, so what read them is stale too.
func TestStaleRowsLeaveTheViews(t *testing.T) {
	env := testEnv(t, 1)
	r := &Runner{Env: env}
	up := &rowStage{name: "up", out: upRows, param: "a"}
	down := &rowStage{name: "down", from: upRows, out: downRows}
	runStage(t, r, up)
	runStage(t, r, down)
	if st := survey(t, r, up, down); st["down"].Done != 2 || selected(t, env, "down_rows") != 2 {
		t.Fatalf("after a complete run: %+v, %d down parts read", st, selected(t, env, "down_rows"))
	}

	up.param = "b"
	runStage(t, r, up) // only up: down read its rows made with a
	st := survey(t, r, up, down)
	if st["up"].Done != 2 || st["down"].Stale != 2 {
		t.Errorf("after up ran alone: %+v, want up done and down stale", st)
	}
	if n := selected(t, env, "down_rows"); n != 0 {
		t.Errorf("the views read %d stale down parts, want none", n)
	}
	if files, _ := env.Warehouse.Files("down_rows"); len(files) != 2 {
		t.Errorf("%d down parts on disk, want both kept", len(files))
	}

	runStage(t, r, down)
	up.param = "c" // up not run: its rows are stale, and so is what read them
	st = survey(t, r, up, down)
	if st["up"].Stale != 2 || st["down"].Stale != 2 {
		t.Errorf("after up's parameter changed: %+v, want both stages stale", st)
	}
	if n := selected(t, env, "up_rows") + selected(t, env, "down_rows"); n != 0 {
		t.Errorf("the views read %d stale parts", n)
	}
}

// TestChangedPartIsStale: a part that is not the file its unit wrote (its
// digest differs from the manifest's) makes the unit stale, says why, and
// the next run writes it again.
func TestChangedPartIsStale(t *testing.T) {
	env := testEnv(t, 1)
	r := &Runner{Env: env}
	up := &rowStage{name: "up", out: upRows, param: "a"}
	runStage(t, r, up)
	files, _ := env.Warehouse.Files("up_rows")
	if err := warehouse.Write(files[0], []schemas.ErrorRow{{ContractID: rowContracts[0], Message: "forged"}}); err != nil {
		t.Fatal(err)
	}
	units, err := r.Plan(context.Background(), up)
	if err != nil {
		t.Fatal(err)
	}
	if r.Current(up, units[0]) || !strings.Contains(r.Why(up, units[0]), "digest differs") {
		t.Errorf("a replaced part: current %v, why %q", r.Current(up, units[0]), r.Why(up, units[0]))
	}
	if c := runStage(t, r, up); c.Ran != 1 {
		t.Errorf("the rerun ran %d units, want the one whose part changed", c.Ran)
	}
	rows, _ := warehouse.Read[schemas.ErrorRow](files[0])
	if len(rows) != 1 || rows[0].Message != "a<" {
		t.Errorf("the part after the rerun: %+v", rows)
	}
}
