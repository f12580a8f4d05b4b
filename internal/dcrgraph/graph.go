package dcrgraph

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strings"
)

// Role is who may call an event's function.
type Role string

const (
	RoleOwner Role = "owner" // the deployer, through onlyOwner-style modifiers
	RoleAny   Role = "any"
)

// RelationType is one of the four core DCR relations.
type RelationType string

const (
	Condition RelationType = "condition" // source ->• target: target waits for source
	Response  RelationType = "response"  // source •-> target: target becomes pending
	Include   RelationType = "include"   // source ->+ target
	Exclude   RelationType = "exclude"   // source ->% target
)

// Graph is the DCR graph extracted for one contract.
type Graph struct {
	Contract  string     `json:"contract"`
	Extractor string     `json:"extractor"`
	Events    []Event    `json:"events"`
	Relations []Relation `json:"relations"`
}

// Event is one branch of one public state-changing function.
type Event struct {
	ID       string `json:"id"`       // e.g. "transferSuccess"
	Function string `json:"function"` // Solidity name; "" for fallback/receive
	Branch   string `json:"branch"`   // "success", "fail" or another label
	Role     Role   `json:"role"`
	Once     bool   `json:"once"`     // excludes itself once executed
	Included bool   `json:"included"` // initially; true when absent from JSON
	Pending  bool   `json:"pending"`  // initially
	Args     []Arg  `json:"args"`     // the proposed argument tuple
	Value    string `json:"value"`    // wei sent with the call, e.g. "0", "1 ether"; "" means 0
}

// Wei evaluates the event's Value, an integer literal with an optional
// unit ("100", "0x10", "0.5 ether"), as the amount of wei to send.
func (e Event) Wei() (*big.Int, error) {
	if strings.TrimSpace(e.Value) == "" {
		return new(big.Int), nil
	}
	g, err := ParseGuard(e.Value)
	if err != nil {
		return nil, fmt.Errorf("value %q: %w", e.Value, err)
	}
	v, err := g.Eval(nil)
	n, ok := v.Int()
	switch {
	case err != nil:
		return nil, fmt.Errorf("value %q: %w", e.Value, err)
	case !ok || n.Sign() < 0:
		return nil, fmt.Errorf("value %q is not a non-negative amount of wei", e.Value)
	}
	return n, nil
}

// Relation links two events; Guard, when set, makes it present only while
// the guard holds on the contract's state.
type Relation struct {
	Type      RelationType      `json:"type"`
	Source    string            `json:"source"`
	Target    string            `json:"target"`
	Guard     string            `json:"guard,omitempty"`
	Constants map[string]string `json:"constants,omitempty"` // compile-time constants the guard names
}

// UnmarshalJSON decodes an event, taking `included` as true when absent:
// DCR events start included unless the graph says otherwise.
func (e *Event) UnmarshalJSON(data []byte) error {
	type plain Event
	*e = Event{}
	w := struct {
		*plain
		Included *bool `json:"included"`
	}{plain: (*plain)(e)}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	e.Included = w.Included == nil || *w.Included
	return nil
}

// MarshalJSON writes every field, `args` as [] rather than null.
func (e Event) MarshalJSON() ([]byte, error) {
	type plain Event
	p := plain(e)
	if p.Args == nil {
		p.Args = []Arg{}
	}
	return json.Marshal(p)
}

// MarshalJSON writes the graph canonically: events sorted by id, relations
// by (source, target, type, guard, constants), so two extractions that
// differ only in order serialise identically.
func (g Graph) MarshalJSON() ([]byte, error) {
	type plain Graph
	p := plain(g)
	p.Events = slices.Clone(g.Events)
	slices.SortStableFunc(p.Events, func(a, b Event) int { return strings.Compare(a.ID, b.ID) })
	p.Relations = slices.Clone(g.Relations)
	slices.SortStableFunc(p.Relations, compareRelations)
	if p.Events == nil {
		p.Events = []Event{}
	}
	if p.Relations == nil {
		p.Relations = []Relation{}
	}
	return json.Marshal(p)
}

func compareRelations(a, b Relation) int {
	if c := strings.Compare(a.Source, b.Source); c != 0 {
		return c
	}
	if c := strings.Compare(a.Target, b.Target); c != 0 {
		return c
	}
	if c := strings.Compare(string(a.Type), string(b.Type)); c != 0 {
		return c
	}
	if c := strings.Compare(a.Guard, b.Guard); c != 0 {
		return c
	}
	ca, _ := json.Marshal(a.Constants) // maps marshal with sorted keys
	cb, _ := json.Marshal(b.Constants)
	return bytes.Compare(ca, cb)
}

// Event returns the event with the given id.
func (g *Graph) Event(id string) (Event, bool) {
	for _, e := range g.Events {
		if e.ID == id {
			return e, true
		}
	}
	return Event{}, false
}

// Prerequisites lists, sorted, the events that other events wait on through
// a condition (self-conditions excluded): Algorithm 1's second priority.
func (g *Graph) Prerequisites() []string {
	set := map[string]bool{}
	for _, r := range g.Relations {
		if r.Type == Condition && r.Source != r.Target {
			set[r.Source] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// ValidationError lists every problem found in a graph.
type ValidationError struct {
	Problems []string
}

func (e *ValidationError) Error() string {
	return fmt.Sprintf("invalid DCR graph (%d problems): %s", len(e.Problems), strings.Join(e.Problems, "; "))
}

// Validate checks the graph's structure: ids present and unique, roles and
// relation types known, relations pointing at existing events, arguments
// well typed. Guards are not compiled here: a guard that does not compile
// is reported per step by the Engine and its relation counts as absent.
func (g *Graph) Validate() error {
	var probs []string
	add := func(format string, args ...any) { probs = append(probs, fmt.Sprintf(format, args...)) }
	if strings.TrimSpace(g.Contract) == "" {
		add("contract name is empty")
	}
	ids := map[string]bool{}
	for i, e := range g.Events {
		where := fmt.Sprintf("event %d (%q)", i, e.ID)
		switch {
		case strings.TrimSpace(e.ID) == "":
			add("event %d has an empty id", i)
		case ids[e.ID]:
			add("%s: duplicate id", where)
		}
		ids[e.ID] = true
		if e.Role != RoleOwner && e.Role != RoleAny {
			add("%s: role %q is neither %q nor %q", where, e.Role, RoleOwner, RoleAny)
		}
		if _, err := e.Wei(); err != nil {
			add("%s: %v", where, err)
		}
		for j, a := range e.Args {
			if err := a.check(); err != nil {
				add("%s: arg %d: %v", where, j, err)
			}
		}
	}
	for i, r := range g.Relations {
		probs = append(probs, relationProblems(i, r, ids)...)
	}
	if len(probs) > 0 {
		return &ValidationError{Problems: probs}
	}
	return nil
}

func relationProblems(i int, r Relation, ids map[string]bool) []string {
	var probs []string
	where := fmt.Sprintf("relation %d (%s %q -> %q)", i, r.Type, r.Source, r.Target)
	switch r.Type {
	case Condition, Response, Include, Exclude:
	default:
		probs = append(probs, fmt.Sprintf("%s: unknown relation type %q", where, r.Type))
	}
	for _, end := range []struct{ name, id string }{{"source", r.Source}, {"target", r.Target}} {
		if !ids[end.id] {
			probs = append(probs, fmt.Sprintf("%s: %s %q is not an event", where, end.name, end.id))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(r.Constants)) {
		if !isIdentifier(name) {
			probs = append(probs, fmt.Sprintf("%s: constant name %q is not an identifier", where, name))
		}
	}
	return probs
}
