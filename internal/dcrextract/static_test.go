package dcrextract

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"

	"github.com/solbehave/solbehave/internal/dcrgraph"
)

// TestStaticDeterministic extracts the same contracts repeatedly: the graph
// bytes and the provenance must not change (map iteration order varies
// between runs, so a dependence on it shows up here).
func TestStaticDeterministic(t *testing.T) {
	for _, name := range []string{"GiftToken", "MultiSigWallet"} {
		d := loadDemo(t, name)
		var first []byte
		var firstRes *Result
		for i := 0; i < 5; i++ {
			res, err := Static(FromRecord(d.rec, d.out))
			if err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(res.Graph)
			if err != nil {
				t.Fatal(err)
			}
			if first == nil {
				first, firstRes = b, res
				continue
			}
			if !bytes.Equal(b, first) || !reflect.DeepEqual(res.Relations, firstRes.Relations) || !reflect.DeepEqual(res.Events, firstRes.Events) {
				t.Fatalf("%s: extraction %d differs from the first", name, i)
			}
		}
		if _, err := dcrgraph.Parse(first); err != nil {
			t.Fatalf("%s: the static graph does not parse back: %v", name, err)
		}
	}
}

// TestStaticArguments checks the provenance of proposed arguments: the most
// frequent successful historical tuple, else a constant a guard compares the
// parameter with, else the type's zero value.
func TestStaticArguments(t *testing.T) {
	res, d := staticGift(t)
	in := FromRecord(d.rec, d.out)
	// approve: from history, and the tuple is the most frequent successful one.
	approve, _ := res.Graph.Event("approveSuccess")
	if got := res.Events["approveSuccess"].ArgSources; !reflect.DeepEqual(got, []string{FromHistory, FromHistory}) {
		t.Fatalf("approve argument sources %v", got)
	}
	// Count raw call data: the proposed tuple, encoded, must be the most
	// frequent successful approve.
	target, err := d.rec.Target(d.out)
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := abi.JSON(bytes.NewReader(target.ABI))
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	best := 0
	for _, c := range in.History {
		if c.Succeeded && len(c.Data) >= 4 && bytes.Equal(c.Data[:4], parsed.Methods["approve"].ID) {
			counts[string(c.Data)]++
			best = max(best, counts[string(c.Data)])
		}
	}
	n, _ := approve.Args[1].Value.Integer()
	proposed, err := parsed.Pack("approve", common.HexToAddress(approve.Args[0].Value.Text), n)
	if err != nil {
		t.Fatal(err)
	}
	if best == 0 || counts[string(proposed)] != best {
		t.Fatalf("proposed approve occurs %d times, the most frequent %d", counts[string(proposed)], best)
	}
	// setBuyPrice is never called: its guard `newTokensPerEth > 0` gives 1.
	if got := res.Events["setBuyPriceSuccess"].ArgSources; !reflect.DeepEqual(got, []string{FromSource}) {
		t.Fatalf("setBuyPrice argument sources %v", got)
	}
	if e, _ := res.Graph.Event("setBuyPriceSuccess"); e.Args[0].Value.Text != "1" {
		t.Fatalf("setBuyPrice(%s), want 1 from `newTokensPerEth > 0`", e.Args[0].Value.Text)
	}
	// transferOwnership is never called: `newOwner != address(0)` gives the caller.
	if e, _ := res.Graph.Event("transferOwnershipSuccess"); e.Args[0].Value.Text != strings.ToLower(in.Caller.Hex()) {
		t.Fatalf("transferOwnership(%s), want the deployer %s", e.Args[0].Value.Text, in.Caller.Hex())
	}
}

func TestDefaultExtractorsFollowTheGenerators(t *testing.T) {
	for _, c := range []struct {
		generators []string
		want       string
	}{
		{nil, "static"},
		{[]string{"mutant", "reference"}, "static"},
		{[]string{"mutant", "openai:gemma", "import:/x", "openai:qwen"}, "llm:gemma,llm:qwen"},
		{[]string{"openai:"}, "static"},
	} {
		if got := strings.Join(DefaultExtractors(c.generators), ","); got != c.want {
			t.Errorf("DefaultExtractors(%v) = %s, want %s", c.generators, got, c.want)
		}
		if got, want := DefaultReference(c.generators), strings.Split(c.want, ",")[0]; got != want {
			t.Errorf("DefaultReference(%v) = %s, want %s", c.generators, got, want)
		}
	}
}
