package dcrgraph

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// ErrNotEnabled is returned (wrapped, with the reason) by Execute for an
// event the marking does not allow.
var ErrNotEnabled = errors.New("event not enabled")

// ErrUnknownEvent is returned (wrapped) for an id the graph does not have.
var ErrUnknownEvent = errors.New("unknown event")

// GuardError reports a guard that did not compile or could not be
// evaluated; for that step its relation counts as absent.
type GuardError struct {
	Relation int // index in Graph.Relations
	Type     RelationType
	Source   string
	Target   string
	Guard    string
	Err      error
}

func (e GuardError) Error() string {
	return fmt.Sprintf("guard %q of %s %s -> %s: %v", e.Guard, e.Type, e.Source, e.Target, e.Err)
}

func (e GuardError) Unwrap() error { return e.Err }

type compiledRelation struct {
	Relation
	index int
	guard *Guard // nil when the relation has no guard
	err   error  // why the guard did not compile
}

// Engine executes the DCR semantics of one graph. It is immutable after
// NewEngine and safe for concurrent use with distinct States.
type Engine struct {
	graph      *Graph
	ids        []string
	known      map[string]bool
	rels       []compiledRelation
	conditions map[string][]int // target -> condition relations on it
	effects    map[string][]int // source -> response/include/exclude relations
	once       map[string]bool
}

// NewEngine validates g and compiles its guards once. A guard that does not
// compile does not fail NewEngine: it is reported by every Enabled call
// (and by CompileErrors) and its relation counts as absent.
func NewEngine(g *Graph) (*Engine, error) {
	if err := g.Validate(); err != nil {
		return nil, err
	}
	e := &Engine{graph: g, known: map[string]bool{}, conditions: map[string][]int{},
		effects: map[string][]int{}, once: map[string]bool{}}
	for _, ev := range g.Events {
		e.ids = append(e.ids, ev.ID)
		e.known[ev.ID] = true
		e.once[ev.ID] = ev.Once
	}
	slices.Sort(e.ids)
	for i, r := range g.Relations {
		e.rels = append(e.rels, compileRelation(i, r))
		if r.Type == Condition {
			e.conditions[r.Target] = append(e.conditions[r.Target], i)
		} else {
			e.effects[r.Source] = append(e.effects[r.Source], i)
		}
	}
	return e, nil
}

func compileRelation(i int, r Relation) compiledRelation {
	c := compiledRelation{Relation: r, index: i}
	if strings.TrimSpace(r.Guard) != "" {
		c.guard, c.err = CompileGuard(r.Guard, r.Constants)
	}
	return c
}

// Graph returns the graph the engine runs.
func (e *Engine) Graph() *Graph { return e.graph }

// Events lists the graph's event ids, sorted.
func (e *Engine) Events() []string { return slices.Clone(e.ids) }

// CompileErrors lists the guards that do not compile, in relation order.
func (e *Engine) CompileErrors() []GuardError {
	var errs []GuardError
	for _, r := range e.rels {
		if r.err != nil {
			errs = append(errs, r.guardError(r.err))
		}
	}
	return errs
}

// Enabled lists, sorted, the events the marking allows on state s: included
// and with every condition on them satisfied, a condition counting only
// while its source is included and its guard holds. Like Algorithm 1 (line
// 5) it evaluates every guard of the graph on s, so guardErrs reports each
// failing guard of the graph once, in relation order.
func (e *Engine) Enabled(m *Marking, s State) (ids []string, guardErrs []GuardError) {
	ev := e.newStep(s)
	for i := range e.rels {
		ev.holds(i)
	}
	for _, id := range e.ids {
		if e.blocker(m, id, ev) == "" {
			ids = append(ids, id)
		}
	}
	return ids, ev.errs
}

// Awaited lists, sorted, the events that an included event is waiting on
// now: the source of a condition whose guard holds, included and not yet
// executed. It is the dynamic form of Graph.Prerequisites.
func (e *Engine) Awaited(m *Marking, s State) ([]string, []GuardError) {
	ev := e.newStep(s)
	set := map[string]bool{}
	for _, r := range e.rels {
		if r.Type == Condition && r.Source != r.Target && m.included[r.Target] &&
			m.included[r.Source] && !m.executed[r.Source] && ev.holds(r.index) {
			set[r.Source] = true
		}
	}
	return slices.Sorted(maps.Keys(set)), ev.errs
}

// Execute runs event id from marking m and returns the resulting marking;
// m is left unchanged. It fails if id is unknown or not enabled on s.
//
// All guards, those of the conditions that enable id and those of its
// responses, inclusions and exclusions alike, are evaluated on s, the state
// before the step. This is Algorithm 1's order (guards read at line 5, the
// marking updated at line 14 from the same evaluation), and it lets the
// caller compute the next marking before sending the transaction and keep
// it only if the call succeeds, with Sender naming that transaction's
// sender. A guard that fails to evaluate makes its relation absent; Step
// reports such guards.
func (e *Engine) Execute(m *Marking, id string, s State) (*Marking, error) {
	next, _, err := e.Step(m, id, s)
	return next, err
}

// Step is Execute that also returns the guard errors met while deciding
// the step (guards of the conditions on id and of id's outgoing effects).
func (e *Engine) Step(m *Marking, id string, s State) (*Marking, []GuardError, error) {
	if !e.known[id] {
		return nil, nil, fmt.Errorf("%w %q", ErrUnknownEvent, id)
	}
	ev := e.newStep(s)
	if why := e.blocker(m, id, ev); why != "" {
		return nil, ev.errs, fmt.Errorf("%w: %q %s", ErrNotEnabled, id, why)
	}
	return e.apply(m, id, ev), ev.errs, nil
}

// apply is the Hildebrandt–Mukkamala update: executed ∪ {id};
// pending \ {id} ∪ responses; included \ exclusions ∪ inclusions (an
// inclusion wins over an exclusion of the same event, the `once`
// self-exclusion included).
func (e *Engine) apply(m *Marking, id string, ev *stepEval) *Marking {
	next := m.Clone()
	next.executed[id] = true
	delete(next.pending, id)
	if e.once[id] {
		delete(next.included, id)
	}
	var includes []string
	for _, i := range e.effects[id] {
		r := e.rels[i]
		if !ev.holds(i) {
			continue
		}
		switch r.Type {
		case Response:
			next.pending[r.Target] = true
		case Exclude:
			delete(next.included, r.Target)
		case Include:
			includes = append(includes, r.Target)
		}
	}
	for _, t := range includes {
		next.included[t] = true
	}
	return next
}

// blocker explains why id is not enabled, or returns "" when it is.
func (e *Engine) blocker(m *Marking, id string, ev *stepEval) string {
	if !m.included[id] {
		return "is excluded"
	}
	for _, i := range e.conditions[id] {
		src := e.rels[i].Source
		if m.included[src] && !m.executed[src] && ev.holds(i) {
			return fmt.Sprintf("waits on condition %q", src)
		}
	}
	return ""
}

// stepEval evaluates each guard at most once per step and collects the
// errors, so one State read serves every question asked in the step.
type stepEval struct {
	e      *Engine
	s      State
	result map[int]bool
	errs   []GuardError
}

func (e *Engine) newStep(s State) *stepEval {
	return &stepEval{e: e, s: s, result: map[int]bool{}}
}

// holds reports whether relation i is present: no guard, or a guard that
// evaluates to true. Guards that fail are recorded and count as absent.
func (ev *stepEval) holds(i int) bool {
	if ok, done := ev.result[i]; done {
		return ok
	}
	r := ev.e.rels[i]
	ok, err := true, r.err
	if r.guard != nil {
		ok, err = r.guard.Holds(ev.s)
	}
	if err != nil {
		ok = false
		ev.errs = append(ev.errs, r.guardError(err))
	}
	ev.result[i] = ok
	return ok
}

func (r compiledRelation) guardError(err error) GuardError {
	return GuardError{Relation: r.index, Type: r.Type, Source: r.Source, Target: r.Target, Guard: r.Guard, Err: err}
}
