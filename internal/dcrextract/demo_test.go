package dcrextract

import (
	"testing"

	"github.com/solbehave/solbehave/internal/dcrgraph"
	"github.com/solbehave/solbehave/internal/stagetest"
)

// TestStaticDemoCorpus extracts every demo contract: each graph validates,
// every guard compiles, the engine accepts it, every event's proposed call
// names a function of the contract, and every relation carries a rule.
func TestStaticDemoCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the eight demo contracts")
	}
	for _, n := range demoNames {
		d := loadDemo(t, n)
		res, err := Static(FromRecord(d.rec, d.out))
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		eng, err := dcrgraph.NewEngine(res.Graph)
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		if errs := eng.CompileErrors(); len(errs) > 0 {
			t.Errorf("%s: guards that do not compile: %v", n, errs)
		}
		if len(res.Relations) != len(res.Graph.Relations) {
			t.Fatalf("%s: %d relation infos for %d relations", n, len(res.Relations), len(res.Graph.Relations))
		}
		for i, r := range res.Relations {
			if r.Rule == "" {
				t.Errorf("%s: relation %d has no rule", n, i)
			}
		}
		for _, e := range res.Graph.Events {
			info, ok := res.Events[e.ID]
			if !ok || len(info.ArgSources) != len(e.Args) {
				t.Errorf("%s: event %s: provenance %+v for %d arguments", n, e.ID, info, len(e.Args))
			}
		}
		if len(res.Graph.Relations) == 0 {
			t.Errorf("%s: no relation at all", n)
		}
	}
}

// TestStaticOpenZeppelin5Owner: HarborToken and TipJar take their owner as
// a constructor argument passed to OpenZeppelin 5's Ownable(initialOwner),
// and were deployed with the deployer as that argument: their onlyOwner
// functions are the owner's, the others anyone's.
func TestStaticOpenZeppelin5Owner(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles two demo contracts")
	}
	want := map[string]map[string]dcrgraph.Role{
		"HarborToken": {"mint": dcrgraph.RoleOwner, "pause": dcrgraph.RoleOwner, "unpause": dcrgraph.RoleOwner,
			"transferOwnership": dcrgraph.RoleOwner, "renounceOwnership": dcrgraph.RoleOwner,
			"transfer": dcrgraph.RoleAny, "approve": dcrgraph.RoleAny, "transferFrom": dcrgraph.RoleAny},
		"TipJar": {"setFee": dcrgraph.RoleOwner, "collectFees": dcrgraph.RoleOwner, "transferOwnership": dcrgraph.RoleOwner,
			"renounceOwnership": dcrgraph.RoleOwner, "register": dcrgraph.RoleAny, "tip": dcrgraph.RoleAny, "withdraw": dcrgraph.RoleAny},
	}
	for name, w := range want {
		d := loadDemo(t, name)
		res, err := Static(FromRecord(d.rec, d.out))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := roles(res.Graph); stagetest.JSON(got) != stagetest.JSON(w) {
			t.Errorf("%s: roles %v\nwant %v", name, got, w)
		}
	}
}
