package dcrgraph

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
)

// Marking is the state of a DCR graph: which events have been executed,
// which are included, which are pending. Engine.Execute never changes a
// marking in place; it returns a new one.
type Marking struct {
	executed map[string]bool
	included map[string]bool
	pending  map[string]bool
}

// NewMarking returns the initial marking of g: nothing executed, events
// included and pending as the graph declares them.
func NewMarking(g *Graph) *Marking {
	m := &Marking{executed: map[string]bool{}, included: map[string]bool{}, pending: map[string]bool{}}
	for _, e := range g.Events {
		if e.Included {
			m.included[e.ID] = true
		}
		if e.Pending {
			m.pending[e.ID] = true
		}
	}
	return m
}

// Clone returns an independent copy.
func (m *Marking) Clone() *Marking {
	return &Marking{executed: maps.Clone(m.executed), included: maps.Clone(m.included), pending: maps.Clone(m.pending)}
}

func (m *Marking) IsExecuted(id string) bool { return m.executed[id] }
func (m *Marking) IsIncluded(id string) bool { return m.included[id] }
func (m *Marking) IsPending(id string) bool  { return m.pending[id] }

// Executed, Included and Pending list the three sets, sorted. Pending holds
// excluded pending events too: their obligation is suspended, not gone, and
// returns if they are included again.
func (m *Marking) Executed() []string { return slices.Sorted(maps.Keys(m.executed)) }
func (m *Marking) Included() []string { return slices.Sorted(maps.Keys(m.included)) }
func (m *Marking) Pending() []string  { return slices.Sorted(maps.Keys(m.pending)) }

// Obligations lists, sorted, the pending events that are included: those
// that stand between this marking and acceptance (Algorithm 1's first
// priority).
func (m *Marking) Obligations() []string {
	due := map[string]bool{}
	for id := range m.pending {
		if m.included[id] {
			due[id] = true
		}
	}
	return slices.Sorted(maps.Keys(due))
}

// Accepting reports whether no included event is pending.
func (m *Marking) Accepting() bool {
	for id := range m.pending {
		if m.included[id] {
			return false
		}
	}
	return true
}

// Summary is a compact deterministic description, e.g. "ex=3 in=5 pe=1".
func (m *Marking) Summary() string {
	return fmt.Sprintf("ex=%d in=%d pe=%d", len(m.executed), len(m.included), len(m.pending))
}

// MarshalJSON writes the three sets as sorted id lists.
func (m *Marking) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Executed []string `json:"executed"`
		Included []string `json:"included"`
		Pending  []string `json:"pending"`
	}{m.Executed(), m.Included(), m.Pending()})
}
