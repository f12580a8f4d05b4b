package callseq

import (
	"reflect"
	"testing"

	"github.com/solbehave/solbehave/internal/dcrextract"
	"github.com/solbehave/solbehave/internal/deploy/deploytest"
	"github.com/solbehave/solbehave/internal/guardstate"
	"github.com/solbehave/solbehave/internal/stagetest"
)

// TestAlgorithm1AcrossFiles: on the multi-file fixture Algorithm 1 reads
// the chain across its files: the storage layout holds the state of every
// base (Owned's private _owner, BaseToken's balances, CapToken's paused),
// the ownership function is Owned's transferOwnership (another file), and
// the owner's setup calls the history never makes in this order (mint,
// setPaused) are kept from the deployer.
func TestAlgorithm1AcrossFiles(t *testing.T) {
	rec, out := deploytest.LoadMultiFile(t, 1000)
	layout, err := guardstate.LayoutOf(out, nil, stagetest.MultiFileTarget)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"_owner", "balanceOf", "allowance", "totalSupply", "cap", "paused"} {
		if _, ok := layout.Vars[v]; !ok {
			t.Errorf("the layout has no %s", v)
		}
	}
	res, err := dcrextract.Static(dcrextract.FromRecord(rec, out))
	if err != nil {
		t.Fatal(err)
	}
	c, err := FromRecord(rec, out, res.Graph)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c.Ownership, []string{"transferOwnership"}) {
		t.Errorf("ownership functions %v", c.Ownership)
	}
	kept := map[string]int{}
	for _, a := range generate(t, c, smallConfig(60)).Attempts {
		if a.Kept {
			kept[a.Function]++
			if (a.Function == "mint" || a.Function == "setPaused") && a.Call.From != c.Deployment.Deployer {
				t.Errorf("%s kept from %s, not the deployer", a.Function, a.Call.From.Hex())
			}
		}
	}
	if kept["mint"] == 0 || kept["setPaused"] == 0 || kept["transfer"] == 0 {
		t.Errorf("kept calls per function %v", kept)
	}
}

// TestOpenZeppelin5OwnerFunctionsComeFromTheOwner: HarborToken and TipJar
// take their owner as a constructor argument (OpenZeppelin 5's
// Ownable(initialOwner)), recorded as the deployer. Under the extended
// protocol, which sends the events of role any from the history's users,
// their onlyOwner functions are still sent from the deployer, and the
// original keeps them.
func TestOpenZeppelin5OwnerFunctionsComeFromTheOwner(t *testing.T) {
	for name, ownerOnly := range map[string][]string{"HarborToken": {"mint", "pause", "unpause"}, "TipJar": {"setFee"}} {
		d := loadDemo(t, name)
		c := d.contract(t)
		res := generate(t, c, profileConfig(t, ProfileExtended, 80))
		kept := map[string]int{}
		for _, a := range res.Attempts {
			for _, f := range ownerOnly {
				if a.Function == f && a.Call.From != c.Deployment.Deployer {
					t.Errorf("%s: %s sent from %s, not the owner", name, f, a.Call.From.Hex())
				}
			}
			if a.Kept {
				kept[a.Function]++
			}
		}
		for _, f := range ownerOnly {
			if kept[f] == 0 {
				t.Errorf("%s: no %s kept; kept calls per function %v", name, f, kept)
			}
		}
	}
}
