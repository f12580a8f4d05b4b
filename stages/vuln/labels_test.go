package vuln

import (
	"testing"

	engine "github.com/solbehave/solbehave/internal/vuln"
)

func TestMapCategory(t *testing.T) {
	lines := []string{
		"uint r = uint(block.blockhash(block.number - 1)) % 2;", // 1: block-number randomness
		"bytes32 h = blockhash(guesses[msg.sender].block);",     // 2: blockhash only
		"require(lib.delegatecall(msg.data));",                  // 3: delegatecall access control
		"owner = msg.sender; // delegatecall in a comment",      // 4
	}
	cases := []struct {
		category string
		lines    []int
		want     engine.Class
		ok       bool
	}{
		{"reentrancy", nil, engine.Reentrancy, true},
		{"arithmetic", []int{9}, engine.Arithmetic, true},
		{"time_manipulation", nil, engine.BlockState, true},
		{"bad_randomness", []int{1}, engine.BlockState, true},
		{"bad_randomness", []int{2}, engine.BlockState, false},
		{"access_control", []int{3}, engine.Delegatecall, true},
		{"access_control", []int{4}, engine.Delegatecall, false},
		{"access_control", []int{99}, engine.Delegatecall, false},
		{"unchecked_low_level_calls", []int{1}, "", false},
		{"denial_of_service", nil, "", false},
	}
	for _, c := range cases {
		got, ok := mapCategory(c.category, c.lines, lines)
		if ok != c.ok || ok && got != c.want {
			t.Errorf("%s %v: got %q %v, want %q %v", c.category, c.lines, got, ok, c.want, c.ok)
		}
	}
}

func TestLabelRowsOnePerClass(t *testing.T) {
	f := &smartbugsFile{id: "x__y", source: "a\nrequire(now > t);\nc\n"}
	f.entry.Path = "dataset/time_manipulation/y.sol"
	f.entry.Vulnerabilities = []sbVuln{{[]int{2}, "time_manipulation"}, {[]int{3}, "front_running"}}
	rows := f.labelRows()
	if len(rows) != len(engine.Classes) {
		t.Fatalf("%d rows, want one per class", len(rows))
	}
	for _, r := range rows {
		want := r.Class == string(engine.BlockState)
		if r.Labelled != want {
			t.Errorf("%s labelled=%v", r.Class, r.Labelled)
		}
		if r.Judged != (r.Class != string(engine.FrozenEther)) {
			t.Errorf("%s judged=%v: only frozen_ether has no DASP category", r.Class, r.Judged)
		}
		if want && (r.DASP != "time_manipulation" || r.Lines != "[2]") {
			t.Errorf("block_state row %+v", r)
		}
	}
}
