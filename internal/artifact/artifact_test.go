package artifact

import (
	"encoding/json"
	"testing"

	"github.com/solbehave/solbehave/internal/solc"
)

func TestPutGetRoundTrip(t *testing.T) {
	s := New(t.TempDir())
	out := &solc.Output{CompilerUsed: "0.8.19+commit.7dd6d404", Contracts: map[string]map[string]*solc.Contract{
		"A.sol": {"A": {File: "A.sol", Name: "A", ABI: json.RawMessage(`[]`), Creation: "6080", Runtime: "00"}}}}
	id, err := s.Put(out)
	if err != nil {
		t.Fatal(err)
	}
	id2, _ := s.Put(out)
	if id != id2 || len(id) != 64 {
		t.Fatalf("content address not stable: %s %s", id, id2)
	}
	got, err := s.Get(id)
	if err != nil {
		t.Fatal(err)
	}
	c, err := got.Contract("A")
	if err != nil || c.Creation != "6080" || got.CompilerUsed != out.CompilerUsed {
		t.Fatalf("round trip lost data: %+v %v", got, err)
	}
	if _, err := s.Get("00"); err == nil {
		t.Fatal("missing artifact must be an error")
	}
}
