package solast_test

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"reflect"
	"strings"
	"testing"

	"github.com/solbehave/solbehave/internal/deploy/deploytest"
	"github.com/solbehave/solbehave/internal/solast"
	"github.com/solbehave/solbehave/internal/solc"
)

// The same contract for old compilers (0.4.9 .. 0.4.26) and for 0.8.x.
const (
	src04 = `pragma solidity ^0.4.9;
library L { function add(uint a, uint b) returns (uint) { return a + b; } }
contract Base { function base() {} }
contract C is Base {
    uint public x;
    address owner;
    uint constant LIMIT = 10;
    event E(address indexed who, uint v);
    modifier only(uint lim) { if (msg.sender == address(0)) throw; _; }
    function C(uint a) { x = a; owner = msg.sender; }
    function set(uint v) only(LIMIT) { x = L.add(v, 1); E(msg.sender, v); }
    function get() constant returns (uint r) { return x; }
    function pay() payable {}
    function hidden(uint a, address b) internal returns (uint, bool);
    function() {}
}
`
	src08 = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
library L { function add(uint a, uint b) public pure returns (uint) { return a + b; } }
abstract contract Base { function base() public {} }
abstract contract C is Base {
    uint public x;
    address owner;
    uint constant LIMIT = 10;
    event E(address indexed who, uint v);
    modifier only(uint lim) { require(msg.sender != address(0)); _; }
    constructor(uint a) { x = a; owner = msg.sender; }
    function set(uint v) public only(LIMIT) { x = L.add(v, 1); emit E(msg.sender, v); }
    function get() public view returns (uint r) { return x; }
    function pay() public payable {}
    function hidden(uint a, address b) internal virtual returns (uint, bool);
    fallback() external {}
}
`
)

func TestMain(m *testing.M) { deploytest.Main(m) }

func compileAST(t *testing.T, version, src string) (*solast.Node, json.RawMessage, bool) {
	t.Helper()
	out := deploytest.Compile(t, solc.Input{Compiler: version, Sources: map[string]string{"c.sol": src}})
	s := out.Sources["c.sol"]
	root, err := solast.ParseWithSource(s.AST, src)
	if err != nil {
		t.Fatalf("%s: %v", version, err)
	}
	return root, s.AST, s.LegacyAST
}

// summary is what must agree across compiler versions.
type summary struct {
	Contracts []string
	Functions []string
	StateVars []string
	Modifiers []string
	Events    []string
}

func summarize(t *testing.T, root *solast.Node, src string) summary {
	t.Helper()
	var s summary
	var c *solast.Node
	for _, k := range solast.Contracts(root) {
		s.Contracts = append(s.Contracts, fmt.Sprintf("%s %s %v", k.Name, k.Kind, k.Bases))
		if k.Name == "C" {
			c = k.Node
		}
	}
	for _, f := range solast.Functions(c) {
		vis := f.Visibility
		if f.Kind != "function" {
			vis = "-" // fallback: public before 0.5, external after; constructor: internal in 0.8's abstract C
		}
		s.Functions = append(s.Functions, fmt.Sprintf("%s %q %s %s %v %v %v", f.Kind, f.Name, vis, f.StateMutability, f.Modifiers, f.Params, f.Returns))
		checkBody(t, f.Name, f.BodySrc, f.Src, src)
		if f.Node.Type != "FunctionDefinition" {
			t.Errorf("function node type %s", f.Node.Type)
		}
	}
	for _, v := range solast.StateVariables(c) {
		s.StateVars = append(s.StateVars, fmt.Sprintf("%s %s %s const=%v", v.Name, v.Type, v.Visibility, v.Constant))
		if !strings.Contains(v.Src.Text(src), v.Name) {
			t.Errorf("state var %s src %q", v.Name, v.Src.Text(src))
		}
	}
	for _, md := range solast.ModifierDefinitions(c) {
		s.Modifiers = append(s.Modifiers, fmt.Sprintf("%s %v", md.Name, md.Params))
		checkBody(t, md.Name, md.BodySrc, md.Src, src)
	}
	for _, e := range solast.Events(c) {
		s.Events = append(s.Events, fmt.Sprintf("%s %v anon=%v", e.Name, e.Params, e.Anonymous))
	}
	return s
}

// checkBody: a body range starts at `{`, ends at `}` and lies in the function.
func checkBody(t *testing.T, name string, body *solast.Src, whole solast.Src, src string) {
	t.Helper()
	if name == "hidden" {
		if body != nil {
			t.Errorf("unimplemented %s has a body %v", name, body)
		}
		return
	}
	if body == nil {
		t.Errorf("%s: no body", name)
		return
	}
	text := body.Text(src)
	if !strings.HasPrefix(text, "{") || !strings.HasSuffix(text, "}") || body.Start < whole.Start || body.End() > whole.End() {
		t.Errorf("%s: body %v = %q (function %v)", name, *body, text, whole)
	}
}

func TestFunctionsAgreeAcrossVersions(t *testing.T) {
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not on PATH: these tests compile with real solc", tool)
		}
	}
	cases := []struct {
		version, src string
		legacy       bool
	}{{"0.4.9", src04, true}, {"0.4.24", src04, false}, {"0.8.19", src08, false}}
	var first summary
	for i, c := range cases {
		root, raw, legacy := compileAST(t, c.version, c.src)
		if legacy != c.legacy {
			t.Fatalf("%s: legacy AST = %v, want %v", c.version, legacy, c.legacy)
		}
		s := summarize(t, root, c.src)
		if i == 0 {
			first = s
			want := []string{
				`constructor "" - nonpayable [] [{a uint256 false}] []`,
				`function "set" public nonpayable [only] [{v uint256 false}] []`,
				`function "get" public view [] [] [{r uint256 false}]`,
				`function "pay" public payable [] [] []`,
				`function "hidden" internal nonpayable [] [{a uint256 false} {b address false}] [{ uint256 false} { bool false}]`,
				`fallback "" - nonpayable [] [] []`,
			}
			if !reflect.DeepEqual(s.Functions, want) {
				t.Fatalf("%s functions:\n%s\nwant\n%s", c.version, strings.Join(s.Functions, "\n"), strings.Join(want, "\n"))
			}
			continue
		}
		if !reflect.DeepEqual(s.Functions, first.Functions) || !reflect.DeepEqual(s.StateVars, first.StateVars) ||
			!reflect.DeepEqual(s.Modifiers, first.Modifiers) || !reflect.DeepEqual(s.Events, first.Events) {
			t.Errorf("%s differs from %s:\n%+v\nvs\n%+v", c.version, cases[0].version, s, first)
		}
		// Only the oldest legacy ASTs need the source text.
		plain, err := solast.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		if p := summarize(t, plain, c.src); !reflect.DeepEqual(p, s) {
			t.Errorf("%s: Parse and ParseWithSource differ:\n%+v\n%+v", c.version, p, s)
		}
		t.Logf("%s: %+v", c.version, s)
	}
	wantVars := []string{"x uint256 public const=false", "owner address internal const=false", "LIMIT uint256 internal const=true"}
	if !reflect.DeepEqual(first.StateVars, wantVars) {
		t.Errorf("state vars %v", first.StateVars)
	}
	if !reflect.DeepEqual(first.Events, []string{"E [{who address true} {v uint256 false}] anon=false"}) {
		t.Errorf("events %v", first.Events)
	}
	if !reflect.DeepEqual(first.Modifiers, []string{"only [{lim uint256 false}]"}) {
		t.Errorf("modifiers %v", first.Modifiers)
	}
}

func TestParseRejectsBadInput(t *testing.T) {
	for _, raw := range []string{``, `null`, `[1,2]`, `{"foo":1}`, `{"nodeType":"SourceUnit","src":"a:b:c"}`, `{`} {
		if _, err := solast.Parse(json.RawMessage(raw)); err == nil {
			t.Errorf("Parse(%q) accepted", raw)
		}
	}
}

func TestParseSrc(t *testing.T) {
	s, err := solast.ParseSrc("12:34:1")
	if err != nil || s != (solast.Src{Start: 12, Length: 34, File: 1}) || s.End() != 46 {
		t.Fatalf("%v %v", s, err)
	}
	if s.Text("short") != "" {
		t.Fatal("out-of-range Text not empty")
	}
	if _, err := solast.ParseSrc("1"); err == nil {
		t.Fatal("bad src accepted")
	}
}

func TestWalkAndFindAll(t *testing.T) {
	// Hand-written legacy and compact trees of `contract A { function f() {} }`.
	legacy := `{"name":"SourceUnit","id":5,"src":"0:30:0","children":[
	  {"name":"ContractDefinition","id":4,"src":"0:30:0","attributes":{"name":"A"},"children":[
	    {"name":"FunctionDefinition","id":3,"src":"13:15:0","attributes":{"name":"f","constant":true},"children":[
	      {"name":"ParameterList","id":1,"src":"23:2:0","children":[]},
	      {"name":"ParameterList","id":2,"src":"26:0:0","children":[]},
	      {"name":"Block","id":6,"src":"26:2:0","children":[]}]}]}]}`
	compact := `{"nodeType":"SourceUnit","id":5,"src":"0:30:0","nodes":[
	  {"nodeType":"ContractDefinition","id":4,"src":"0:30:0","name":"A","nodes":[
	    {"nodeType":"FunctionDefinition","id":3,"src":"13:15:0","name":"f","kind":"function","stateMutability":"view",
	     "body":{"nodeType":"Block","id":6,"src":"26:2:0","statements":[]},
	     "returnParameters":{"nodeType":"ParameterList","id":2,"src":"26:0:0","parameters":[]},
	     "parameters":{"nodeType":"ParameterList","id":1,"src":"23:2:0","parameters":[]}}]}]}`
	for _, raw := range []string{legacy, compact} {
		root, err := solast.Parse(json.RawMessage(raw))
		if err != nil {
			t.Fatal(err)
		}
		var types []string
		root.Walk(func(n *solast.Node) bool {
			types = append(types, n.Type)
			return n.Type != "FunctionDefinition" // skip below functions
		})
		if strings.Join(types, ",") != "SourceUnit,ContractDefinition,FunctionDefinition" {
			t.Errorf("walk %v", types)
		}
		if n := len(root.FindAll("ParameterList")); n != 2 {
			t.Errorf("%d ParameterLists", n)
		}
		fns := solast.Functions(solast.Contracts(root)[0].Node)
		if len(fns) != 1 || fns[0].Name != "f" || fns[0].StateMutability != "view" || fns[0].BodySrc == nil || fns[0].BodySrc.Start != 26 {
			t.Errorf("functions %+v", fns)
		}
	}
}
