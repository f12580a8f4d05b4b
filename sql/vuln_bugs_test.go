package sqlviews_test

import (
	"testing"

	"github.com/solbehave/solbehave/internal/stagetest"
	"github.com/solbehave/solbehave/schemas"
)

// vuln_bugs attributes a site to a bug by a shared line or by the called
// function lying inside the bug's lines; non-exploitable bugs are counted
// apart, and a site attributed to no bug is outside.
func TestVulnBugsPerInjectedBug(t *testing.T) {
	f := newFixture(t)
	put(f, "vuln_runs", "A", schemas.VulnRun{ContractID: "A", Subject: "smartbugs", Sample: -1, Ablation: "none", Profile: "saefuzz", Status: "ok"})
	put(f, "vuln_bug_labels", "A",
		schemas.VulnBug{ContractID: "A", Bug: 0, Class: "reentrancy", Lines: "[10,11]", Exploitable: true},
		schemas.VulnBug{ContractID: "A", Bug: 1, Class: "reentrancy", Lines: "[20,21,22]", Exploitable: false, Reason: "send"},
		schemas.VulnBug{ContractID: "A", Bug: 2, Class: "block_state", Lines: "[30,31]", Exploitable: true},
		schemas.VulnBug{ContractID: "A", Bug: 3, Class: "block_state", Lines: "[40]", Exploitable: true})
	put(f, "vuln_sites", "A",
		schemas.VulnSite{ContractID: "A", Ablation: "none", Profile: "saefuzz", Class: "reentrancy", Function: "w()", PCs: "[1]", Lines: "[11,12]"},
		schemas.VulnSite{ContractID: "A", Ablation: "none", Profile: "saefuzz", Class: "reentrancy", Function: "s()", PCs: "[2]", Lines: "[5]", FunctionFirst: 20, FunctionLast: 22},
		schemas.VulnSite{ContractID: "A", Ablation: "none", Profile: "saefuzz", Class: "block_state", Function: "p()", PCs: "[3]", Lines: "[50]", FunctionFirst: 29, FunctionLast: 52},
		schemas.VulnSite{ContractID: "A", Ablation: "no-static", Profile: "saefuzz", Class: "block_state", Function: "q()", PCs: "[4]", Lines: "[40]"})
	db := f.open("vuln_bugs")
	got := stagetest.QueryMaps(t, db, `SELECT class, bugs, exploitable, found, missed, recall, not_exploitable, not_exploitable_found, sites, sites_outside FROM vuln_bugs ORDER BY class`)
	want := `[{"bugs":2,"class":"block_state","exploitable":2,"found":0,"missed":2,"not_exploitable":0,"not_exploitable_found":0,"recall":0,"sites":1,"sites_outside":1},` +
		`{"bugs":2,"class":"reentrancy","exploitable":1,"found":1,"missed":0,"not_exploitable":1,"not_exploitable_found":1,"recall":1,"sites":2,"sites_outside":0}]`
	if stagetest.JSON(got) != want {
		t.Fatalf("vuln_bugs %s\nwant %s", stagetest.JSON(got), want)
	}
}
