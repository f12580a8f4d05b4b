package solc

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// ABIChange names what a sample's ABI changed from the original's, both
// from the same compiler: the first entry (function, constructor, fallback,
// receive, event, error; with its parameter and return types and its state
// mutability) that one has and the other lacks, as "lacks function
// withdraw(uint256) nonpayable" or "adds ...". "" when the two are the same
// interface (entry order aside).
func ABIChange(original, sample json.RawMessage) (string, error) {
	want, err := abiEntries(original)
	if err != nil {
		return "", fmt.Errorf("original ABI: %w", err)
	}
	got, err := abiEntries(sample)
	if err != nil {
		return "", fmt.Errorf("sample ABI: %w", err)
	}
	if e := firstMissing(want, got); e != "" {
		return "lacks " + e, nil
	}
	if e := firstMissing(got, want); e != "" {
		return "adds " + e, nil
	}
	return "", nil
}

type abiParam struct {
	Type       string     `json:"type"`
	Indexed    bool       `json:"indexed"`
	Components []abiParam `json:"components"`
}

type abiEntry struct {
	Type            string     `json:"type"`
	Name            string     `json:"name"`
	Inputs          []abiParam `json:"inputs"`
	Outputs         []abiParam `json:"outputs"`
	StateMutability string     `json:"stateMutability"`
	Constant        bool       `json:"constant"` // before solc 0.4.16 (and beside stateMutability until 0.5)
	Payable         bool       `json:"payable"`
	Anonymous       bool       `json:"anonymous"`
}

// abiEntries is the set of an ABI's entries, each as one line.
func abiEntries(raw json.RawMessage) (map[string]bool, error) {
	var entries []abiEntry
	if err := json.Unmarshal(raw, &entries); err != nil {
		return nil, err
	}
	out := make(map[string]bool, len(entries))
	for _, e := range entries {
		out[e.String()] = true
	}
	return out, nil
}

func (e abiEntry) String() string {
	s := strings.TrimSpace(e.Type+" "+e.Name) + "(" + paramTypes(e.Inputs) + ")"
	if len(e.Outputs) > 0 {
		s += " returns (" + paramTypes(e.Outputs) + ")"
	}
	switch {
	case e.StateMutability != "":
		s += " " + e.StateMutability
	case e.Type != "event" && e.Type != "error":
		s += fmt.Sprintf(" constant=%v payable=%v", e.Constant, e.Payable)
	}
	if e.Anonymous {
		s += " anonymous"
	}
	return s
}

// paramTypes lists the parameters' types, a tuple by its components' and
// an event's indexed parameters marked.
func paramTypes(ps []abiParam) string {
	types := make([]string, len(ps))
	for i, p := range ps {
		t := p.Type
		if strings.HasPrefix(t, "tuple") {
			t = "(" + paramTypes(p.Components) + ")" + strings.TrimPrefix(t, "tuple")
		}
		if p.Indexed {
			t += " indexed"
		}
		types[i] = t
	}
	return strings.Join(types, ",")
}

// firstMissing is the first entry of a, in order, that b lacks.
func firstMissing(a, b map[string]bool) string {
	var missing []string
	for e := range a {
		if !b[e] {
			missing = append(missing, e)
		}
	}
	if len(missing) == 0 {
		return ""
	}
	sort.Strings(missing)
	return missing[0]
}
