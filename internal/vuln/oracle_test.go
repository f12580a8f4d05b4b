package vuln

import (
	"context"
	"encoding/json"
	"testing"
)

// pairs are the per-class test contracts: the oracle must fire on the
// vulnerable one and stay silent on its fixed twin.
var pairs = []struct {
	class                Class
	vulnFile, vulnName   string
	fixedFile, fixedName string
}{
	{Reentrancy, "reentrancy.sol", "ReentrantBank", "reentrancy_fixed.sol", "SafeBank"},
	{Arithmetic, "arithmetic.sol", "WrappingToken", "arithmetic_fixed.sol", "CheckedToken"},
	{Arithmetic, "arithmetic08.sol", "UncheckedCounter", "arithmetic08_fixed.sol", "CheckedCounter"},
	{BlockState, "blockstate.sol", "TimeLottery", "blockstate_fixed.sol", "TurnLottery"},
	// A branch on the time that both ways reaches the same transfer does not decide it.
	{BlockState, "blockstate.sol", "TimeLottery", "blockstate_bookkeeping.sol", "StampedBank"},
	{Delegatecall, "delegatecall.sol", "OpenForwarder", "delegatecall_fixed.sol", "OwnedForwarder"},
	{FrozenEther, "frozen.sol", "Locker", "frozen_fixed.sol", "SweepableLocker"},
	// A payout no sequence reaches is not frozen Ether: the code can send.
	{FrozenEther, "frozen.sol", "Locker", "frozen_guarded.sol", "SecretPayout"},
}

func TestOraclesFireOnVulnerableNotOnFixed(t *testing.T) {
	for _, p := range pairs {
		t.Run(p.vulnName+"/"+p.fixedName, func(t *testing.T) {
			vuln := run(t, deployTestdata(t, p.vulnFile, p.vulnName), testConfig(1))
			f := findingOf(vuln, p.class)
			if f == nil {
				t.Fatalf("%s: no %s finding (findings %+v)", p.vulnName, p.class, vuln.Findings)
			}
			if !f.Reproduces {
				t.Errorf("%s: the %s finding does not reproduce", p.vulnName, p.class)
			}
			checkFindingJSON(t, f)
			fixed := run(t, deployTestdata(t, p.fixedFile, p.fixedName), testConfig(1))
			if g := findingOf(fixed, p.class); g != nil {
				t.Errorf("%s: %s fired on the fixed twin: seed %s evidence %s", p.fixedName, p.class, g.Seed, g.Evidence)
			}
		})
	}
}

func run(t *testing.T, target Target, cfg Config) *Report {
	t.Helper()
	r, err := Run(context.Background(), target, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if r.TestCases == 0 || r.InstructionsCovered == 0 {
		t.Fatalf("nothing ran: %+v", r)
	}
	return r
}

func checkFindingJSON(t *testing.T, f *Finding) {
	t.Helper()
	var seed []map[string]any
	if err := json.Unmarshal([]byte(f.Seed), &seed); err != nil || len(seed) == 0 {
		t.Errorf("seed is not a JSON transaction list: %v %s", err, f.Seed)
	}
	if f.TxIndex < 0 || f.TxIndex >= len(seed) {
		t.Errorf("tx index %d outside the seed of %d", f.TxIndex, len(seed))
	}
	var ev []Evidence
	if err := json.Unmarshal([]byte(f.Evidence), &ev); err != nil || len(ev) == 0 {
		t.Errorf("evidence is not a JSON trace excerpt: %v %s", err, f.Evidence)
	}
}

// Extension exact-values (block-state class: a lottery behind an exact
// stake): the fuzzer sends the price the code compares msg.value with, read
// from the comparison, and the block-state oracle then sees the flip decide
// the payout. Without the extension (saefuzz) no drawn value equals a price
// fixed at deployment.
func TestExactValuesReachAStakedLottery(t *testing.T) {
	target := deployTestdata(t, "blockstate_stake.sol", "PricedFlip")
	cfg := testConfig(1)
	cfg.Population, cfg.Generations = 16, 10
	mustFind(t, target, cfg, BlockState, "the priced coin flip")
	cfg.Profile = ProfileSAEFUZZ
	if f := findingOf(run(t, target, cfg), BlockState); f != nil {
		t.Errorf("saefuzz found the priced coin flip without exact values: seed %s", f.Seed)
	}
}

// Extension deploy-block-state (block-state class: a number drawn from the
// deployment's block and kept in storage): the slot the constructor derived
// from its block is block state in every seed, so the guess's branch is one
// and the oracle's counterfactual sees it unlock the pot. A number the
// deployer chose is not; saefuzz has no such taint.
func TestDeployBlockStateSealedNumber(t *testing.T) {
	sealed := deployTestdata(t, "blockstate_sealed.sol", "SealedNumber")
	if len(sealed.BlockSlots) != 1 || sealed.BlockSlots[0].Uint64() != 0 {
		t.Fatalf("SealedNumber: block slots %v, want [0]", sealed.BlockSlots)
	}
	chosen := deployTestdata(t, "blockstate_sealed.sol", "ChosenNumber")
	if len(chosen.BlockSlots) != 0 {
		t.Fatalf("ChosenNumber: block slots %v, want none", chosen.BlockSlots)
	}
	cfg := testConfig(1)
	cfg.Population, cfg.Generations = 16, 10
	mustFind(t, sealed, cfg, BlockState, "the sealed number")
	if f := findingOf(run(t, chosen, cfg), BlockState); f != nil {
		t.Errorf("extended: block_state on the chosen number: seed %s evidence %s", f.Seed, f.Evidence)
	}
	cfg.Profile = ProfileSAEFUZZ
	if f := findingOf(run(t, sealed, cfg), BlockState); f != nil {
		t.Errorf("saefuzz: block_state on the sealed number: seed %s", f.Seed)
	}
}

// Extension send-calls (block-state class: a lucky block that sends back a
// stake of 0 wei): the send the block decides counts as a payout, as
// ContractFuzzer's SendCall; a send every third bet decides is not block
// state, nor one behind a deadline (timeLock), and saefuzz counts only
// positive values.
func TestSendCallsLuckyBlockRefund(t *testing.T) {
	cfg := testConfig(1)
	cfg.Population, cfg.Generations = 16, 10
	lucky := deployTestdata(t, "blockstate_sendcall.sol", "LuckyBlockRefund")
	mustFind(t, lucky, cfg, BlockState, "the lucky-block refund")
	for _, name := range []string{"ThirdBetRefund", "HourlyRefund"} {
		twin := deployTestdata(t, "blockstate_sendcall.sol", name)
		if f := findingOf(run(t, twin, cfg), BlockState); f != nil {
			t.Errorf("extended: block_state on %s: seed %s evidence %s", name, f.Seed, f.Evidence)
		}
	}
	cfg.Profile = ProfileSAEFUZZ
	if f := findingOf(run(t, lucky, cfg), BlockState); f != nil {
		t.Errorf("saefuzz: block_state on the lucky-block refund: seed %s", f.Seed)
	}
}

// mustFind runs target under cfg and wants a reproducing finding of class.
func mustFind(t *testing.T, target Target, cfg Config, class Class, what string) {
	t.Helper()
	if f := findingOf(run(t, target, cfg), class); f == nil {
		t.Errorf("%s: no %s finding on %s", cfg.Profile, class, what)
	} else if !f.Reproduces {
		t.Errorf("%s: the %s finding on %s does not reproduce", cfg.Profile, class, what)
	}
}
