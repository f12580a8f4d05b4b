package dcrgraph

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func ev(id string) Event { return Event{ID: id, Function: id, Role: RoleAny, Included: true} }

func rel(t RelationType, src, tgt string) Relation {
	return Relation{Type: t, Source: src, Target: tgt}
}

func guarded(t RelationType, src, tgt, guard string) Relation {
	return Relation{Type: t, Source: src, Target: tgt, Guard: guard}
}

func engine(t *testing.T, events []Event, rels ...Relation) (*Engine, *Marking) {
	t.Helper()
	g := &Graph{Contract: "Test", Events: events, Relations: rels}
	e, err := NewEngine(g)
	if err != nil {
		t.Fatal(err)
	}
	return e, NewMarking(g)
}

func enabled(t *testing.T, e *Engine, m *Marking, s State) []string {
	t.Helper()
	ids, errs := e.Enabled(m, s)
	for _, ge := range errs {
		t.Errorf("unexpected guard error: %v", ge)
	}
	return ids
}

func exec(t *testing.T, e *Engine, m *Marking, id string, s State) *Marking {
	t.Helper()
	next, err := e.Execute(m, id, s)
	if err != nil {
		t.Fatalf("execute %s: %v", id, err)
	}
	return next
}

func wantIDs(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

func TestConditionBlocksTargetUntilSourceExecuted(t *testing.T) {
	e, m := engine(t, []Event{ev("a"), ev("b")}, rel(Condition, "a", "b"))
	s := newFakeState()
	wantIDs(t, "enabled", enabled(t, e, m, s), "a")
	if _, err := e.Execute(m, "b", s); !errors.Is(err, ErrNotEnabled) || !strings.Contains(err.Error(), `"a"`) {
		t.Fatalf("execute b before a: err = %v, want ErrNotEnabled naming a", err)
	}
	m = exec(t, e, m, "a", s)
	wantIDs(t, "enabled after a", enabled(t, e, m, s), "a", "b")
}

func TestExcludingSourceLiftsCondition(t *testing.T) {
	e, m := engine(t, []Event{ev("a"), ev("b"), ev("x")}, rel(Condition, "a", "b"), rel(Exclude, "x", "a"))
	s := newFakeState()
	m = exec(t, e, m, "x", s)
	wantIDs(t, "enabled after excluding a", enabled(t, e, m, s), "b", "x")
	m = exec(t, e, m, "b", s)
	if m.IsExecuted("a") {
		t.Error("a executed without running")
	}
}

func TestResponseStaysPendingUntilExecutedOrExcluded(t *testing.T) {
	events := []Event{ev("a"), ev("b"), ev("x"), ev("y")}
	e, m := engine(t, events, rel(Response, "a", "b"), rel(Exclude, "x", "b"), rel(Include, "y", "b"))
	s := newFakeState()
	if !m.Accepting() {
		t.Fatal("initial marking not accepting")
	}
	m = exec(t, e, m, "a", s)
	m = exec(t, e, m, "a", s) // still one obligation
	wantIDs(t, "obligations", m.Obligations(), "b")
	if m.Accepting() {
		t.Fatal("accepting with b pending")
	}
	done := exec(t, e, m, "b", s)
	if !done.Accepting() || done.IsPending("b") {
		t.Errorf("after b: accepting=%v pending=%v", done.Accepting(), done.Pending())
	}
	lapsed := exec(t, e, m, "x", s)
	if !lapsed.Accepting() {
		t.Error("excluding the pending event did not make the marking accepting")
	}
	wantIDs(t, "pending while excluded", lapsed.Pending(), "b")
	back := exec(t, e, lapsed, "y", s)
	if back.Accepting() {
		t.Error("re-including a pending event must restore its obligation")
	}
}

func TestInclusionRestoresEvent(t *testing.T) {
	b := ev("b")
	b.Included = false
	e, m := engine(t, []Event{ev("a"), b, ev("c")}, rel(Include, "a", "b"), rel(Condition, "b", "c"))
	s := newFakeState()
	wantIDs(t, "enabled", enabled(t, e, m, s), "a", "c") // excluded b does not block c
	m = exec(t, e, m, "a", s)
	wantIDs(t, "enabled after include", enabled(t, e, m, s), "a", "b")
	if _, err := e.Execute(m, "c", s); !errors.Is(err, ErrNotEnabled) {
		t.Errorf("included b must block c again, err = %v", err)
	}
}

func TestOnceExcludesItself(t *testing.T) {
	init := ev("init")
	init.Once = true
	e, m := engine(t, []Event{init, ev("use"), ev("reset")}, rel(Include, "reset", "init"))
	s := newFakeState()
	m = exec(t, e, m, "init", s)
	if m.IsIncluded("init") {
		t.Fatal("once event still included")
	}
	if _, err := e.Execute(m, "init", s); !errors.Is(err, ErrNotEnabled) {
		t.Fatalf("second init: err = %v", err)
	}
	m = exec(t, e, m, "reset", s)
	wantIDs(t, "enabled after reset", enabled(t, e, m, s), "init", "reset", "use")
}

func TestInclusionWinsOverExclusionInOneStep(t *testing.T) {
	a := ev("a")
	a.Once = true
	e, m := engine(t, []Event{a, ev("b")}, rel(Exclude, "a", "b"), rel(Include, "a", "b"), rel(Include, "a", "a"))
	m = exec(t, e, m, "a", newFakeState())
	if !m.IsIncluded("a") || !m.IsIncluded("b") {
		t.Errorf("included = %v, want a and b", m.Included())
	}
}

func TestSelfResponseKeepsPending(t *testing.T) {
	e, m := engine(t, []Event{ev("tick")}, rel(Response, "tick", "tick"))
	m = exec(t, e, m, "tick", newFakeState())
	if !m.IsPending("tick") {
		t.Error("self-response must leave the event pending")
	}
}

func TestGuardSwitchesConditionOnAndOff(t *testing.T) {
	e, m := engine(t, []Event{ev("unpause"), ev("transfer")}, guarded(Condition, "unpause", "transfer", "paused"))
	s := newFakeState().set("paused", BoolValue(true))
	wantIDs(t, "enabled while paused", enabled(t, e, m, s), "unpause")
	s.set("paused", BoolValue(false))
	wantIDs(t, "enabled when unpaused", enabled(t, e, m, s), "transfer", "unpause")
	s.set("paused", BoolValue(true))
	wantIDs(t, "enabled paused again", enabled(t, e, m, s), "unpause")
}

func TestGuardSwitchesResponseWithState(t *testing.T) {
	e, m := engine(t, []Event{ev("buy"), ev("withdraw")}, guarded(Response, "buy", "withdraw", "raised >= 2 ether"))
	s := newFakeState().set("raised", ether(1))
	m = exec(t, e, m, "buy", s)
	if !m.Accepting() {
		t.Fatal("guard false, response must be absent")
	}
	s.set("raised", ether(2))
	m = exec(t, e, m, "buy", s)
	if m.Accepting() {
		t.Fatal("guard true, withdraw must be pending")
	}
}

func TestBrokenGuardCountsAsAbsentAndIsReported(t *testing.T) {
	e, m := engine(t, []Event{ev("a"), ev("b"), ev("c")},
		guarded(Condition, "a", "b", "undefinedVar > 0"),
		guarded(Condition, "a", "c", "1 +"),
		guarded(Response, "c", "a", "alsoUndefined"))
	ids, errs := e.Enabled(m, newFakeState())
	wantIDs(t, "enabled", ids, "a", "b", "c")
	// Like Algorithm 1, Enabled evaluates every guard, effects' guards too.
	if len(errs) != 3 || errs[0].Relation != 0 || errs[1].Relation != 1 || errs[2].Relation != 2 {
		t.Fatalf("guard errors = %v, want one per relation in order", errs)
	}
	if !strings.Contains(errs[0].Error(), "undefinedVar") {
		t.Errorf("error does not name the unknown identifier: %v", errs[0])
	}
	if ce := e.CompileErrors(); len(ce) != 1 || ce[0].Relation != 1 {
		t.Errorf("CompileErrors = %v, want relation 1 only", ce)
	}
}

func TestStepReportsGuardErrorsOfEffects(t *testing.T) {
	e, m := engine(t, []Event{ev("buy"), ev("withdraw")}, guarded(Response, "buy", "withdraw", "address(this).balance > 0"))
	next, errs, err := e.Step(m, "buy", &brokenState{*newFakeState()})
	if err != nil {
		t.Fatal(err)
	}
	if len(errs) != 1 || !errors.Is(errs[0], errUnreachable) {
		t.Fatalf("guard errors = %v, want the unreachable balance", errs)
	}
	if !next.Accepting() {
		t.Error("failed guard must make the response absent")
	}
}

func TestExecuteLeavesMarkingUnchanged(t *testing.T) {
	e, m := engine(t, []Event{ev("a"), ev("b")}, rel(Response, "a", "b"), rel(Exclude, "a", "a"))
	before := m.Summary()
	next := exec(t, e, m, "a", newFakeState())
	if m.Summary() != before || m.IsExecuted("a") {
		t.Errorf("input marking changed: %s -> %s", before, m.Summary())
	}
	if got := next.Summary(); got != "ex=1 in=1 pe=1" {
		t.Errorf("summary = %q", got)
	}
	clone := next.Clone()
	clone = exec(t, e, exec(t, e, clone, "b", newFakeState()), "b", newFakeState())
	if next.IsExecuted("b") {
		t.Error("Clone shares state")
	}
}

func TestExecuteUnknownEvent(t *testing.T) {
	e, m := engine(t, []Event{ev("a")})
	if _, err := e.Execute(m, "nope", newFakeState()); !errors.Is(err, ErrUnknownEvent) {
		t.Errorf("err = %v, want ErrUnknownEvent", err)
	}
}

func TestNewEngineRejectsInvalidGraph(t *testing.T) {
	_, err := NewEngine(&Graph{Contract: "X", Events: []Event{ev("a")}, Relations: []Relation{rel(Condition, "a", "ghost")}})
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("err = %v, want ValidationError", err)
	}
}

func TestAwaitedFollowsMarkingAndGuards(t *testing.T) {
	e, m := engine(t, []Event{ev("approve"), ev("pull"), ev("other")},
		rel(Condition, "approve", "pull"), guarded(Condition, "other", "pull", "strict"))
	s := newFakeState().set("strict", BoolValue(false))
	got, errs := e.Awaited(m, s)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	wantIDs(t, "awaited", got, "approve")
	s.set("strict", BoolValue(true))
	got, _ = e.Awaited(m, s)
	wantIDs(t, "awaited with guard", got, "approve", "other")
	m = exec(t, e, m, "approve", s)
	got, _ = e.Awaited(m, s)
	wantIDs(t, "awaited after approve", got, "other")
}

func TestMarkingJSON(t *testing.T) {
	e, m := engine(t, []Event{ev("b"), ev("a")}, rel(Response, "a", "b"))
	m = exec(t, e, m, "a", newFakeState())
	data, err := m.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	want := `{"executed":["a"],"included":["a","b"],"pending":["b"]}`
	if string(data) != want {
		t.Errorf("marking JSON = %s, want %s", data, want)
	}
}
