package vuln

import (
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/solbehave/solbehave/internal/solc"
	"github.com/solbehave/solbehave/internal/stagetest"
	"github.com/solbehave/solbehave/internal/views"
	"github.com/solbehave/solbehave/pipeline"
	"github.com/solbehave/solbehave/schemas"
)

// A SmartBugs-layout corpus written by the test: a labelled reentrant bank
// (whose trailing log contract the `main` target mode skips) and a safe
// bank labelled only with a category no class maps, named with a compiler
// that cannot load so the pragma's newest release must stand in.
const labelledBank = `pragma solidity ^0.4.24;
contract Bank {
    mapping(address => uint256) public balances;
    Log log = new Log();
    function deposit() public payable { balances[msg.sender] += msg.value; log.note(); }
    function withdraw() public {
        uint256 amount = balances[msg.sender];
        require(amount > 0);
        // <yes> <report> REENTRANCY
        require(msg.sender.call.value(amount)());
        balances[msg.sender] = 0;
    }
}
contract Log {
    uint256 public notes;
    function note() public { notes += 1; }
}
`

const safeBank = `pragma solidity ^0.4.24;
/* contract NotReal { function f() public {} } */
contract SafeBank {
    mapping(address => uint256) public balances;
    function deposit() public payable { balances[msg.sender] += msg.value; }
    function withdraw() public {
        uint256 amount = balances[msg.sender];
        balances[msg.sender] = 0;
        // <yes> <report> FRONT_RUNNING
        msg.sender.transfer(amount);
    }
}
`

func writeCorpus(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{"dataset/reentrancy/bank.sol": labelledBank, "dataset/front_running/safe.sol": safeBank}
	for path, src := range files {
		full := filepath.Join(dir, filepath.FromSlash(path))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	entries := []sbEntry{
		{Name: "bank.sol", Path: "dataset/reentrancy/bank.sol", Pragma: "0.4.24", CompiledVersion: "0.4.24",
			Vulnerabilities: []sbVuln{{Lines: []int{10}, Category: "reentrancy"}}},
		{Name: "safe.sol", Path: "dataset/front_running/safe.sol", Pragma: "0.3.6", CompiledVersion: "0.3.6",
			Vulnerabilities: []sbVuln{{Lines: []int{10}, Category: "front_running"}}},
	}
	b, _ := json.Marshal(entries)
	if err := os.WriteFile(filepath.Join(dir, "vulnerabilities.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestMain(m *testing.M) { stagetest.Main(m) }

// newEnv is a run environment with engines of its own (a test may set
// their options) and seed 7.
func newEnv(t *testing.T, corpus string) *pipeline.Env {
	env := stagetest.IsolatedEnv(t, corpus)
	env.Seed = 7
	return env
}

// runVuln runs s, wants the given number of units and none failed, and
// returns the `vuln_runs` rows.
func runVuln(t *testing.T, env *pipeline.Env, s *Stage, units int) []schemas.VulnRun {
	t.Helper()
	if c := stagetest.Run(t, env, s); c.Units != units || c.Failed != 0 {
		t.Fatalf("counters %+v, want %d units, none failed", c, units)
	}
	return stagetest.Rows(t, env, schemas.VulnRuns)
}

func TestSmartBugsLayoutEndToEnd(t *testing.T) {
	env := newEnv(t, writeCorpus(t))
	s := New() // the default target, main, skips the bank's trailing Log
	runs := runVuln(t, env, s, 4)
	byID := map[string]schemas.VulnRun{}
	for _, r := range runs {
		byID[r.ContractID] = r
	}
	bank, safe := byID["reentrancy__bank"], byID["front_running__safe"]
	if bank.Target != "Bank" || bank.Status != "ok" || bank.InstructionsCovered == 0 || bank.TestCases == 0 {
		t.Errorf("bank run %+v", bank)
	}
	if safe.Target != "SafeBank" || safe.CompilerSubstitution == "" || !strings.HasPrefix(safe.CompilerUsed, "0.4.26") {
		t.Errorf("safe run should fall back to the pragma's newest release: %+v", safe)
	}
	classes := map[string]bool{}
	for _, f := range stagetest.Rows(t, env, schemas.VulnFindings) {
		classes[f.ContractID+":"+f.Class] = true
		if f.ContractID == "reentrancy__bank" && f.Class == "reentrancy" && !f.Reproduces {
			t.Errorf("the reentrancy finding does not reproduce: %+v", f)
		}
	}
	if !classes["reentrancy__bank:reentrancy"] || classes["front_running__safe:reentrancy"] {
		t.Errorf("findings %v: want reentrancy on the bank only", classes)
	}
	if n := len(stagetest.Rows(t, env, schemas.VulnLabels)); n != 10 {
		t.Errorf("%d label rows, want 5 per file", n)
	}
	checkEval(t, env)
	if again := stagetest.Run(t, env, s); again.Ran != 0 || again.Skipped != 4 {
		t.Errorf("a rerun should skip every unit: %+v", again)
	}
}

func checkEval(t *testing.T, env *pipeline.Env) {
	t.Helper()
	db, err := views.OpenInMemory(env.Warehouse.Root)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var tp, fp, fn int
	if err := db.QueryRow("SELECT tp, fp, fn FROM vuln_eval WHERE class = 'reentrancy'").Scan(&tp, &fp, &fn); err != nil {
		t.Fatal(err)
	}
	if tp != 1 || fp != 0 || fn != 0 {
		t.Errorf("vuln_eval reentrancy: tp %d fp %d fn %d, want 1 0 0", tp, fp, fn)
	}
	// No label speaks of frozen Ether: the class is counted, not scored.
	var ftp, ffp sql.NullInt64
	var judged bool
	if err := db.QueryRow("SELECT tp, fp, judged FROM vuln_eval WHERE class = 'frozen_ether'").Scan(&ftp, &ffp, &judged); err != nil {
		t.Fatal(err)
	}
	if ftp.Valid || ffp.Valid || judged {
		t.Errorf("vuln_eval frozen_ether: tp %v fp %v judged %v, want NULL NULL false", ftp, ffp, judged)
	}
}

// attackedVault ends with an attacker that names the vault (as
// governmental_survey does) after the vault's log helper; the vault
// inherits from a base contract.
const attackedVault = `pragma solidity ^0.4.24;
contract Owned {
    address public owner;
    constructor() public { owner = msg.sender; }
}
contract Vault is Owned {
    mapping(address => uint256) public balances;
    Log log;
    constructor(address l) public { log = Log(l); }
    function deposit() public payable { balances[msg.sender] += msg.value; log.note(); }
    function withdraw() public {
        uint256 amount = balances[msg.sender];
        balances[msg.sender] = 0;
        msg.sender.transfer(amount);
    }
}
contract Log {
    uint256 public notes;
    function note() public { notes += 1; }
}
contract Attacker {
    function attack(address vault) public payable {
        Vault(vault).deposit.value(msg.value)();
        Vault(vault).withdraw();
    }
    function() public payable {}
}
`

func TestTargetModes(t *testing.T) {
	env := newEnv(t, writeCorpus(t))
	for _, c := range []struct {
		file, source string
		want         map[string]string
	}{
		{"bank.sol", labelledBank, map[string]string{"last": "Log", "main": "Bank"}},
		{"vault.sol", attackedVault, map[string]string{"last": "Attacker", "main": "Vault"}},
	} {
		out, err := env.Engines.Solc().Compile(context.Background(), solc.Input{Compiler: "0.4.24", Sources: map[string]string{c.file: c.source}})
		if err != nil {
			t.Fatal(err)
		}
		for mode, want := range c.want {
			got, err := pickTarget(out, c.file, mode)
			if err != nil || got.Name != want {
				t.Errorf("%s, mode %s: %v %v, want %s", c.file, mode, got, err, want)
			}
		}
	}
	if New().Target != "main" {
		t.Errorf("the default target mode is %q, want main", New().Target)
	}
}

func TestAblationsAreSeparateUnits(t *testing.T) {
	s := New()
	s.Ablations = []string{"none", "opcode", "none"}
	env := newEnv(t, writeCorpus(t))
	units, err := s.Plan(context.Background(), env)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, u := range units {
		ids[u.ID] = true
	}
	for _, want := range []string{"reentrancy__bank", "reentrancy__bank/opcode", "reentrancy__bank/labels"} {
		if !ids[want] {
			t.Errorf("no unit %s in %v", want, ids)
		}
	}
	if len(units) != 6 {
		t.Errorf("%d units, want 3 per file", len(units))
	}
	s.Ablations = []string{"bogus"}
	if _, err := s.Plan(context.Background(), env); err == nil {
		t.Error("an unknown ablation was accepted")
	}
}
