package dcrgraph

import (
	"encoding/json"
	"maps"
	"os"
	"reflect"
	"slices"
	"testing"
)

// No JSON-schema validator is in go.mod, so the schema is held to the Go
// types another way: its property names are the structs' JSON tags, its
// required lists are what Parse requires, its enums are the Go constants,
// its defaults are what Parse fills in, and it forbids the unknown keys
// Parse rejects.

const schemaPath = "../../schemas/dcr_graph.schema.json"

type schemaNode struct {
	Schema               string                `json:"$schema"`
	Ref                  string                `json:"$ref"`
	Required             []string              `json:"required"`
	Properties           map[string]schemaNode `json:"properties"`
	AdditionalProperties json.RawMessage       `json:"additionalProperties"`
	Enum                 []string              `json:"enum"`
	Default              json.RawMessage       `json:"default"`
	Items                *schemaNode           `json:"items"`
	Defs                 map[string]schemaNode `json:"$defs"`
}

func loadSchema(t *testing.T) schemaNode {
	t.Helper()
	data, err := os.ReadFile(schemaPath)
	if err != nil {
		t.Fatal(err)
	}
	var s schemaNode
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	if s.Schema != "https://json-schema.org/draft/2020-12/schema" {
		t.Errorf("$schema = %q, want draft 2020-12", s.Schema)
	}
	return s
}

func schemaObjects(t *testing.T, s schemaNode) map[string]struct {
	node schemaNode
	spec fieldSpec
} {
	t.Helper()
	objs := map[string]struct {
		node schemaNode
		spec fieldSpec
	}{"graph": {s, graphFields}}
	for name, spec := range map[string]fieldSpec{"event": eventFields, "arg": argFields, "relation": relationFields} {
		def, ok := s.Defs[name]
		if !ok {
			t.Fatalf("schema has no $defs/%s", name)
		}
		objs[name] = struct {
			node schemaNode
			spec fieldSpec
		}{def, spec}
	}
	return objs
}

func TestSchemaMatchesStructs(t *testing.T) {
	s := loadSchema(t)
	for name, o := range schemaObjects(t, s) {
		props := slices.Sorted(maps.Keys(o.node.Properties))
		if tags := slices.Sorted(slices.Values(o.spec.known)); !slices.Equal(props, tags) {
			t.Errorf("%s: schema properties %v, Go json tags %v", name, props, tags)
		}
		if req := slices.Sorted(slices.Values(o.node.Required)); !slices.Equal(req, slices.Sorted(slices.Values(o.spec.required))) {
			t.Errorf("%s: schema requires %v, Parse requires %v", name, req, o.spec.required)
		}
		if string(o.node.AdditionalProperties) != "false" {
			t.Errorf("%s: schema must set additionalProperties false, as Parse rejects unknown keys", name)
		}
	}
	refs := map[string]string{
		"events": s.Properties["events"].Items.Ref, "relations": s.Properties["relations"].Items.Ref,
		"args": s.Defs["event"].Properties["args"].Items.Ref,
	}
	for prop, want := range map[string]string{"events": "#/$defs/event", "relations": "#/$defs/relation", "args": "#/$defs/arg"} {
		if refs[prop] != want {
			t.Errorf("%s items $ref = %q, want %q", prop, refs[prop], want)
		}
	}
	wantEnum(t, "role", s.Defs["event"].Properties["role"].Enum, string(RoleOwner), string(RoleAny))
	wantEnum(t, "relation type", s.Defs["relation"].Properties["type"].Enum,
		string(Condition), string(Response), string(Include), string(Exclude))
}

func wantEnum(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want))) {
		t.Errorf("%s enum = %v, Go constants %v", what, got, want)
	}
	g := &Graph{Contract: "X", Events: []Event{{ID: "a", Role: "nope"}}, Relations: []Relation{{Type: "nope", Source: "a", Target: "a"}}}
	if g.Validate() == nil {
		t.Error("Validate accepts values outside the enums")
	}
}

// fullGraph sets every key of every object, so deleting keys one at a time
// exercises each property of the schema.
const fullGraph = `{"contract":"C","extractor":"e",
 "events":[{"id":"a","function":"f","branch":"success","role":"any","once":false,"included":true,"pending":false,
   "args":[{"type":"uint256","value":1}],"value":"0"}],
 "relations":[{"type":"response","source":"a","target":"a","guard":"x > N","constants":{"N":"1"}}]}`

// objectsOf returns the graph's four kinds of object, to be edited in place.
func objectsOf(doc map[string]any) map[string]map[string]any {
	ev := doc["events"].([]any)[0].(map[string]any)
	objs := map[string]map[string]any{"graph": doc, "event": ev,
		"relation": doc["relations"].([]any)[0].(map[string]any)}
	if args, _ := ev["args"].([]any); len(args) > 0 {
		objs["arg"] = args[0].(map[string]any)
	}
	return objs
}

func parseEdited(t *testing.T, edit func(map[string]map[string]any)) error {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal([]byte(fullGraph), &doc); err != nil {
		t.Fatal(err)
	}
	edit(objectsOf(doc))
	data, _ := json.Marshal(doc)
	_, err := Parse(data)
	return err
}

func TestSchemaRequiredAndUnknownKeysAgreeWithParse(t *testing.T) {
	if err := parseEdited(t, func(map[string]map[string]any) {}); err != nil {
		t.Fatalf("full graph: %v", err)
	}
	for name, o := range schemaObjects(t, loadSchema(t)) {
		for prop := range o.node.Properties {
			err := parseEdited(t, func(objs map[string]map[string]any) {
				if _, ok := objs[name][prop]; !ok {
					t.Fatalf("fullGraph lacks %s.%s", name, prop)
				}
				delete(objs[name], prop)
			})
			if required := slices.Contains(o.node.Required, prop); (err != nil) != required {
				t.Errorf("without %s.%s: required=%v but Parse err = %v", name, prop, required, err)
			}
		}
		if err := parseEdited(t, func(objs map[string]map[string]any) { objs[name]["bogus"] = 1 }); err == nil {
			t.Errorf("Parse accepts an unknown key in %s, the schema does not", name)
		}
	}
}

func TestSchemaDefaultsAreParseDefaults(t *testing.T) {
	for name, o := range schemaObjects(t, loadSchema(t)) {
		for prop, p := range o.node.Properties {
			if p.Default == nil {
				continue
			}
			got := reparsedObject(t, name, prop)
			var want any
			json.Unmarshal(p.Default, &want)
			value, present := got[prop]
			if !present && isEmptyJSON(want) {
				continue // omitempty wrote nothing, which reads back as the default
			}
			if !reflect.DeepEqual(value, want) {
				t.Errorf("%s.%s: schema default %s, Parse gives %v", name, prop, p.Default, value)
			}
		}
	}
}

// reparsedObject parses fullGraph without name.prop and returns that
// object as Graph.MarshalJSON writes it back.
func reparsedObject(t *testing.T, name, prop string) map[string]any {
	t.Helper()
	var doc map[string]any
	json.Unmarshal([]byte(fullGraph), &doc)
	delete(objectsOf(doc)[name], prop)
	data, _ := json.Marshal(doc)
	g, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := g.MarshalJSON()
	var back map[string]any
	json.Unmarshal(out, &back)
	return objectsOf(back)[name]
}

func isEmptyJSON(v any) bool {
	switch v := v.(type) {
	case string:
		return v == ""
	case bool:
		return !v
	case map[string]any:
		return len(v) == 0
	case []any:
		return len(v) == 0
	}
	return false
}
