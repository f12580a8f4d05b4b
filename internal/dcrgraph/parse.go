package dcrgraph

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
)

// fieldSpec is the key set of one JSON object of the graph format. known
// comes from the Go struct's json tags, so the struct stays the single
// source of truth; schemas/dcr_graph.schema.json is tested against both.
type fieldSpec struct {
	known    []string
	required []string
}

var (
	graphFields    = fieldSpec{jsonTags(Graph{}), []string{"contract", "events", "relations"}}
	eventFields    = fieldSpec{jsonTags(Event{}), []string{"id", "function", "role"}}
	argFields      = fieldSpec{jsonTags(Arg{}), []string{"type", "value"}}
	relationFields = fieldSpec{jsonTags(Relation{}), []string{"type", "source", "target"}}
)

// Parse decodes and validates a graph strictly: unknown or missing keys,
// wrongly typed values and every Validate problem are reported together in
// one *ValidationError. Missing optional keys take their defaults (included
// true; branch, guard "", once, pending false; no args, no constants).
func Parse(data []byte) (*Graph, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("DCR graph is not a JSON object: %w", err)
	}
	probs := shapeProblems(top)
	var g Graph
	if err := json.Unmarshal(data, &g); err != nil {
		probs = append(probs, decodeProblem(err))
	} else if err := g.Validate(); err != nil {
		var ve *ValidationError
		errors.As(err, &ve)
		probs = append(probs, ve.Problems...)
	}
	if len(probs) > 0 {
		return nil, &ValidationError{Problems: probs}
	}
	return &g, nil
}

func decodeProblem(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Sprintf("%s: expected %s, got JSON %s", te.Field, te.Type, te.Value)
	}
	return err.Error()
}

// shapeProblems checks the keys of every object in the graph.
func shapeProblems(top map[string]json.RawMessage) []string {
	probs := keyProblems("graph", top, graphFields)
	events := objectList("events", top["events"], &probs)
	for i, ev := range events {
		where := fmt.Sprintf("event %d", i)
		probs = append(probs, keyProblems(where, ev, eventFields)...)
		for j, arg := range objectList(where+" args", ev["args"], &probs) {
			probs = append(probs, keyProblems(fmt.Sprintf("%s arg %d", where, j), arg, argFields)...)
		}
	}
	for i, rel := range objectList("relations", top["relations"], &probs) {
		probs = append(probs, keyProblems(fmt.Sprintf("relation %d", i), rel, relationFields)...)
	}
	return probs
}

// objectList decodes an array of objects, reporting when it is something
// else; absent or null yields nothing.
func objectList(where string, raw json.RawMessage, probs *[]string) []map[string]json.RawMessage {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var list []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		*probs = append(*probs, where+" must be an array of objects")
		return nil
	}
	return list
}

func keyProblems(where string, obj map[string]json.RawMessage, spec fieldSpec) []string {
	var probs []string
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		if !slices.Contains(spec.known, k) {
			probs = append(probs, fmt.Sprintf("%s: unknown key %q", where, k))
		}
	}
	for _, k := range spec.required {
		if _, ok := obj[k]; !ok {
			probs = append(probs, fmt.Sprintf("%s: missing key %q", where, k))
		}
	}
	return probs
}

// jsonTags lists the JSON names of a struct's fields, in field order.
func jsonTags(v any) []string {
	t := reflect.TypeOf(v)
	var names []string
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			names = append(names, name)
		}
	}
	return names
}
