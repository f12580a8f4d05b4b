package dcrgraph

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func TestParseListsEveryProblem(t *testing.T) {
	doc := `{
	  "contract": "Broken",
	  "extractor": "x",
	  "colour": "blue",
	  "events": [
	    {"id": "a", "function": "f", "role": "owner"},
	    {"id": "a", "function": "g", "role": "admin"},
	    {"function": "h", "role": "any", "onc": true},
	    {"id": "d", "function": "", "role": "any", "value": "-1",
	     "args": [{"type": "uint8", "value": 256}, {"type": "address", "value": "bob"},
	              {"type": "uint257", "value": 1}, {"type": "bool", "value": [true]}]}
	  ],
	  "relations": [
	    {"type": "milestone", "source": "a", "target": "d"},
	    {"type": "condition", "source": "a", "target": "ghost"},
	    {"type": "include", "source": "phantom", "target": "a", "constants": {"not an id": "1"}}
	  ]
	}`
	_, err := Parse([]byte(doc))
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("err = %v, want *ValidationError", err)
	}
	for _, want := range []string{
		`unknown key "colour"`, `duplicate id`, `role "admin"`, `missing key "id"`, `unknown key "onc"`,
		`empty id`, `value "-1"`, `uint8 value 256 is out of range`, `"bob"`, `"uint257" is not an ABI type`,
		`[true] must be a JSON string`, `unknown relation type "milestone"`, `target "ghost" is not an event`,
		`source "phantom" is not an event`, `constant name "not an id"`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not report %s:\n%v", want, err)
		}
	}
	if len(ve.Problems) != 15 {
		t.Errorf("%d problems, want 15:\n%s", len(ve.Problems), strings.Join(ve.Problems, "\n"))
	}
}

func TestParseRejectsMalformedJSON(t *testing.T) {
	for _, doc := range []string{``, `[]`, `{"contract": "X", "events": {}, "relations": []}`,
		`{"contract": "X", "events": [{"id": "a", "function": "f", "role": "any", "once": "yes"}], "relations": []}`} {
		if _, err := Parse([]byte(doc)); err == nil {
			t.Errorf("%q parsed", doc)
		}
	}
}

func TestParseDefaults(t *testing.T) {
	g, err := Parse([]byte(`{"contract": "X", "events": [{"id": "a", "function": "", "role": "any"}], "relations": []}`))
	if err != nil {
		t.Fatal(err)
	}
	a := g.Events[0]
	if !a.Included || a.Pending || a.Once || a.Args != nil || a.Branch != "" {
		t.Errorf("defaults = %+v", a)
	}
	if wei, err := a.Wei(); err != nil || wei.Sign() != 0 {
		t.Errorf("default value = %v, %v", wei, err)
	}
}

func TestMarshalIsCanonical(t *testing.T) {
	g, _ := loadGifto(t)
	first, err := g.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	shuffled := *g
	shuffled.Events = append([]Event(nil), g.Events...)
	shuffled.Relations = append([]Relation(nil), g.Relations...)
	reverse(shuffled.Events)
	reverse(shuffled.Relations)
	second, _ := shuffled.MarshalJSON()
	if !bytes.Equal(first, second) {
		t.Fatalf("order changes the JSON:\n%s\n%s", first, second)
	}
	again, err := Parse(first)
	if err != nil {
		t.Fatal(err)
	}
	third, _ := again.MarshalJSON()
	if !bytes.Equal(first, third) {
		t.Fatalf("round trip changes the JSON:\n%s\n%s", first, third)
	}
	if !bytes.Contains(first, []byte(`"value":100000}`)) || !bytes.Contains(first, []byte(`"value":"50000"}`)) {
		t.Errorf("argument values lost their JSON types: %s", first)
	}
	if bytes.Index(first, []byte(`"disableSale"`)) > bytes.Index(first, []byte(`"enableSale"`)) {
		t.Error("events not sorted by id")
	}
}

func TestMarshalKeepsBigNumbersExact(t *testing.T) {
	doc := `{"contract":"X","events":[{"id":"a","function":"f","role":"any","args":[{"type":"uint256","value":115792089237316195423570985008687907853269984665640564039457584007913129639935}]}],"relations":[]}`
	g, err := Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	out, _ := g.MarshalJSON()
	if !bytes.Contains(out, []byte("115792089237316195423570985008687907853269984665640564039457584007913129639935")) {
		t.Errorf("max uint256 not preserved: %s", out)
	}
	n, err := g.Events[0].Args[0].Value.Integer()
	if err != nil || n.BitLen() != 256 {
		t.Errorf("Integer = %v, %v", n, err)
	}
}

func TestArgChecks(t *testing.T) {
	good := []Arg{
		{"uint256", NumberArg("1e18")}, {"uint", StringArg("0xff")}, {"int8", NumberArg("-128")},
		{"bool", BoolArg(true)}, {"bool", StringArg("false")}, {"string", StringArg("hi")},
		{"address", StringArg("0x000000000000000000000000000000000000dEaD")},
		{"bytes32", StringArg("0x1234")}, {"bytes", StringArg("0x")}, {"uint8[]", StringArg("[1,2]")},
		{"(address,uint256)[2]", StringArg("...")}, {"address[3][]", StringArg("[]")},
	}
	for _, a := range good {
		if err := a.check(); err != nil {
			t.Errorf("%+v: %v", a, err)
		}
	}
	bad := []Arg{
		{"uint256", NumberArg("-1")}, {"int8", NumberArg("128")}, {"uint256", NumberArg("1.5")},
		{"bool", NumberArg("1")}, {"string", NumberArg("1")}, {"address", StringArg("0x12")},
		{"bytes2", StringArg("0x123456")}, {"bytes", StringArg("0x123")}, {"uint8[]", NumberArg("1")},
		{"uint8[x]", StringArg("[]")}, {"", StringArg("")}, {"bytes33", StringArg("0x")},
		{"(address,uint7)", StringArg("")}, {"uint256", ArgValue{ArgInvalid, "null"}},
	}
	for _, a := range bad {
		if err := a.check(); err == nil {
			t.Errorf("%+v accepted", a)
		}
	}
}

func TestPrerequisites(t *testing.T) {
	g := &Graph{Contract: "X", Events: []Event{ev("a"), ev("b"), ev("c")}, Relations: []Relation{
		rel(Condition, "b", "c"), rel(Condition, "a", "c"), rel(Condition, "a", "b"),
		rel(Condition, "c", "c"), rel(Response, "c", "a"),
	}}
	wantIDs(t, "prerequisites", g.Prerequisites(), "a", "b")
}

func TestGiftoFileIsCanonicalInput(t *testing.T) {
	g := parseGifto(t)
	if len(g.Events) != 7 || len(g.Relations) != 4 {
		t.Errorf("gifto has %d events, %d relations", len(g.Events), len(g.Relations))
	}
}

func reverse[T any](s []T) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}
