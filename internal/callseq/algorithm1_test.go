package callseq

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"math/big"
	"reflect"
	"strings"
	"testing"

	"github.com/solbehave/solbehave/internal/dcrgraph"
	"github.com/solbehave/solbehave/schemas"
)

// vaultBalance follows the Vault's balance along a sequence's kept calls.
type vaultBalance struct {
	initialized bool
	balance     *big.Int
}

func (v *vaultBalance) apply(t *testing.T, a Attempt) {
	switch a.Function {
	case "initialize":
		v.initialized, v.balance = true, new(big.Int)
	case "deposit":
		v.balance.Add(v.balance, argInt(t, a))
	case "withdraw":
		v.balance.Sub(v.balance, argInt(t, a))
	}
}

func argInt(t *testing.T, a Attempt) *big.Int {
	var args []string
	if err := json.Unmarshal([]byte(a.Args), &args); err != nil || len(args) != 1 {
		t.Fatalf("%s: args %q", a.Event, a.Args)
	}
	n, ok := new(big.Int).SetString(args[0], 10)
	if !ok {
		t.Fatalf("%s: argument %q", a.Event, args[0])
	}
	return n
}

// The Figure 1 Vault's history never calls initialize. Algorithm 1 does (it
// is a prerequisite of withdraw), and after it tries a withdraw of more than
// the vault holds, which the original rejects: the call whose outcome tells
// Figure 1's regenerated withdraw from the original.
func TestVaultReachesInitializeThenAnOverWithdrawal(t *testing.T) {
	d := loadDemo(t, "Vault")
	for _, tx := range d.rec.Txs {
		if hex.EncodeToString(tx.Input[:min(4, len(tx.Input))]) == "8129fc1c" { // initialize()
			t.Fatal("the demo history calls initialize; the test needs one that does not")
		}
	}
	res := generate(t, d.contract(t), smallConfig(60))
	v := &vaultBalance{balance: new(big.Int)}
	overWithdrawals, keptWithdrawals := 0, 0
	for _, a := range res.Attempts {
		switch {
		case a.Kept:
			if a.Function == "withdraw" {
				if !v.initialized || argInt(t, a).Cmp(v.balance) > 0 {
					t.Errorf("kept %s/%d: withdraw(%s) with initialized=%v balance=%s", a.Event, a.Step, argInt(t, a), v.initialized, v.balance)
				}
				keptWithdrawals++
			}
			v.apply(t, a)
		case a.Function == "withdraw" && v.initialized && argInt(t, a).Cmp(v.balance) > 0:
			if a.Status != schemas.StatusRevert {
				t.Errorf("over-withdrawal %+v not a revert", a)
			}
			overWithdrawals++
		}
	}
	if !v.initialized || overWithdrawals == 0 || keptWithdrawals == 0 {
		t.Fatalf("initialized=%v, %d over-withdrawals tried, %d withdrawals kept", v.initialized, overWithdrawals, keptWithdrawals)
	}
	if res.Kept != 60 || res.Stop != EndBudget {
		t.Errorf("kept %d, stop %q; want the budget of 60", res.Kept, res.Stop)
	}
}

func TestGenerationIsDeterministicUnderTheSeed(t *testing.T) {
	d := loadDemo(t, "StakingPool")
	c := d.contract(t)
	a, b := generate(t, c, smallConfig(80)), generate(t, c, smallConfig(80))
	if !reflect.DeepEqual(a.Rows("x", "static", ProfilePaper), b.Rows("x", "static", ProfilePaper)) {
		t.Fatal("two runs with one seed differ")
	}
	other := smallConfig(80)
	other.Seed = 7
	if reflect.DeepEqual(a.Rows("x", "static", ProfilePaper), generate(t, c, other).Rows("x", "static", ProfilePaper)) {
		t.Fatal("another seed gave the same sequences")
	}
}

// A contract whose every call reverts stops at the attempt bound.
func TestAttemptBoundStopsAContractWhoseCallsAllRevert(t *testing.T) {
	d := loadDemo(t, "Vault")
	g := &dcrgraph.Graph{Contract: "Vault", Extractor: "test", Events: []dcrgraph.Event{{
		ID: "withdrawFail", Function: "withdraw", Branch: "fail", Role: dcrgraph.RoleAny, Included: true,
		Args: []dcrgraph.Arg{{Type: "uint256", Value: dcrgraph.NumberArg("5")}},
	}}}
	c := d.contract(t)
	c.Graph = g
	cfg := smallConfig(10)
	cfg.MaxAttempts = 37
	res := generate(t, c, cfg)
	if res.Stop != EndAttempts || len(res.Attempts) != 37 || res.Kept != 0 {
		t.Fatalf("stop %q after %d attempts, %d kept", res.Stop, len(res.Attempts), res.Kept)
	}
	for _, a := range res.Attempts {
		if a.Kept || a.Status != schemas.StatusRevert || a.After != a.Before {
			t.Fatalf("attempt %+v", a)
		}
	}
}

// With nothing allowed from the start, a contract stops at once.
func TestNoEnabledEventStopsAtOnce(t *testing.T) {
	d := loadDemo(t, "Vault")
	c := d.contract(t)
	c.Graph = &dcrgraph.Graph{Contract: "Vault", Events: []dcrgraph.Event{{ID: "x", Function: "deposit", Role: dcrgraph.RoleAny,
		Included: false, Args: []dcrgraph.Arg{{Type: "uint256", Value: dcrgraph.NumberArg("1")}}}}}
	res := generate(t, c, smallConfig(10))
	if res.Stop != EndNoStep || len(res.Attempts) != 0 || res.Sequences != 1 {
		t.Fatalf("stop %q, %d attempts, %d sequences", res.Stop, len(res.Attempts), res.Sequences)
	}
}

// Ownership-transferring events are never chosen during a sequence; they
// are sent at its end.
func TestOwnershipTransfersComeLast(t *testing.T) {
	d := loadDemo(t, "GiftToken")
	c := d.contract(t)
	if !reflect.DeepEqual(c.Ownership, []string{"transferOwnership"}) {
		t.Fatalf("ownership functions %v", c.Ownership)
	}
	cfg := smallConfig(50)
	cfg.MaxLength = 20 // several sequences, so several ends
	res := generate(t, c, cfg)
	finals, lastStep := 0, map[int]int{}
	for _, a := range res.Attempts {
		lastStep[a.Seq] = max(lastStep[a.Seq], a.Step)
	}
	seenFinal := map[int]bool{}
	for _, a := range res.Attempts {
		isOwner := a.Function == "transferOwnership"
		if isOwner != (a.Priority == PriorityFinal) {
			t.Fatalf("%s chosen with priority %s", a.Event, a.Priority)
		}
		if isOwner {
			finals++
			seenFinal[a.Seq] = true
		} else if seenFinal[a.Seq] {
			t.Fatalf("%s sent after an ownership transfer in sequence %d", a.Event, a.Seq)
		}
	}
	if finals == 0 || res.Sequences < 3 {
		t.Fatalf("%d final attempts over %d sequences", finals, res.Sequences)
	}
}

// The retries: an event whose proposed arguments always revert keeps no
// call under the paper's protocol (a revert is discarded), and calls with
// recorded arguments under the extended one.
func TestRetriesFindRecordedArgumentsOnlyInExtended(t *testing.T) {
	d := loadDemo(t, "EtherLocker")
	c := d.contract(t)
	c.Graph = &dcrgraph.Graph{Contract: "EtherLocker", Events: []dcrgraph.Event{{ID: "lockSuccess", Function: "lock", Branch: "success",
		Role: dcrgraph.RoleAny, Included: true, Value: "1 ether", Args: []dcrgraph.Arg{
			{Type: "address", Value: dcrgraph.StringArg("0x00000000000000000000000000000000000000b0")},
			{Type: "uint256", Value: dcrgraph.NumberArg("0")}, // in the past: lock requires a day ahead
		}}}}
	cfg := profileConfig(t, ProfilePaper, 20)
	cfg.MaxAttempts = 200
	without := generate(t, c, cfg)
	if without.Kept != 0 || len(without.Attempts) != 200 {
		t.Fatalf("paper: %d calls kept of %d attempts", without.Kept, len(without.Attempts))
	}
	for _, a := range without.Attempts {
		if a.Try != 0 || a.ArgsSource != ArgsProposed {
			t.Fatalf("paper retried: %+v", a)
		}
	}
	cfg = profileConfig(t, ProfileExtended, 20)
	cfg.MaxAttempts = 200
	with := generate(t, c, cfg)
	sources := map[string]int{}
	for _, a := range with.Attempts {
		if a.Kept {
			sources[a.ArgsSource]++
		}
		if a.Try == 0 && a.ArgsSource != ArgsProposed {
			t.Fatalf("try 0 from %s", a.ArgsSource)
		}
	}
	if with.Kept != 20 || sources[ArgsHistory] == 0 || sources[ArgsProposed] != 0 {
		t.Fatalf("extended: %d kept, by source %v", with.Kept, sources)
	}
}

// The paper's protocol on a demo contract with real users in its history:
// every call from the deployer, no retry, no searched argument, one block of
// 12 s per call from the block after the creation; the extended protocol
// differs on each of these.
func TestPaperProfileCallsFromTheDeployerWithoutRetries(t *testing.T) {
	d := loadDemo(t, "StakingPool")
	c := d.contract(t)
	paper := generate(t, c, profileConfig(t, ProfilePaper, 80))
	created := c.Deployment.Block
	lastSeq, want := -1, chainBlock{}
	for _, a := range paper.Attempts {
		if a.Call.From != c.Deployment.Deployer || a.Try != 0 || a.ArgsSource == ArgsSearch {
			t.Fatalf("paper attempt %+v: want the deployer, try 0, no search", a)
		}
		if a.Seq != lastSeq { // each sequence starts again from the deployment
			lastSeq, want = a.Seq, chainBlock{created.Number, created.Time}
		}
		want = chainBlock{want.number + 1, want.time + 12}
		if got := (chainBlock{a.Call.Block.Number, a.Call.Block.Time}); got != want {
			t.Fatalf("paper attempt seq %d step %d at %+v, want %+v", a.Seq, a.Step, got, want)
		}
	}
	if len(paper.Users) != 0 || paper.Kept == 0 {
		t.Fatalf("paper: users %v, %d kept", paper.Users, paper.Kept)
	}
	ext := generate(t, c, profileConfig(t, ProfileExtended, 80))
	others, retries, paced := 0, 0, 0
	for _, a := range ext.Attempts {
		if a.Call.From != c.Deployment.Deployer {
			others++
		}
		if a.Try > 0 {
			retries++
		}
		if a.Step == 0 && a.Call.Block.Number != created.Number+1 {
			paced++
		}
	}
	if others == 0 || retries == 0 || paced == 0 {
		t.Fatalf("extended: %d calls from users, %d retries, %d first steps paced by the history", others, retries, paced)
	}
}

type chainBlock struct{ number, time uint64 }

// A proposal whose arguments do not encode is replaced, once, by a recorded
// call of the same function, under the paper's protocol too.
func TestPaperReplacesAnUnusableProposalByARecordedCall(t *testing.T) {
	d := loadDemo(t, "EtherLocker")
	c := d.contract(t)
	c.Graph = &dcrgraph.Graph{Contract: "EtherLocker", Events: []dcrgraph.Event{{ID: "lockSuccess", Function: "lock", Branch: "success",
		Role: dcrgraph.RoleAny, Included: true, Value: "1 ether", Args: []dcrgraph.Arg{ // one argument of two
			{Type: "address", Value: dcrgraph.StringArg("0x00000000000000000000000000000000000000b0")}}}}}
	res := generate(t, c, profileConfig(t, ProfilePaper, 10))
	steps := map[[2]int][]Attempt{}
	for _, a := range res.Attempts {
		k := [2]int{a.Seq, a.Step}
		steps[k] = append(steps[k], a)
	}
	for k, tries := range steps {
		if len(tries) != 2 || tries[0].Status != schemas.StatusUnencodable || tries[1].ArgsSource != ArgsHistory {
			t.Fatalf("step %v: %+v; want the unencodable proposal, then one recorded call", k, tries)
		}
	}
	if res.Kept == 0 {
		t.Fatal("no recorded lock call was kept")
	}
}

// The kept calls replay on a fresh fork exactly as they ran, and the
// refused ones, probed at their place, are refused again.
func TestReplayableReproducesTheGeneration(t *testing.T) {
	d := loadDemo(t, "PaymentChannel")
	c := d.contract(t)
	res := generate(t, c, smallConfig(60))
	rows := res.Rows("PaymentChannel", "static", ProfilePaper)
	seqs, err := Replayable(rows)
	if err != nil {
		t.Fatal(err)
	}
	kept, probes := 0, 0
	for _, seq := range seqs {
		h := c.Deployment.Chain.Fork()
		for i, call := range seq.Calls {
			target := h
			if call.Probe {
				target = h.Fork()
				probes++
			} else {
				kept++
			}
			to := c.Deployment.Address
			r, err := target.Apply(chainMsg(call, &to))
			if err != nil || r.Success == call.Probe {
				t.Fatalf("sequence %d call %d (probe %v): %v %+v", seq.ID, i, call.Probe, err, r)
			}
		}
	}
	if kept != res.Kept || probes == 0 {
		t.Fatalf("%d kept calls replayed (want %d), %d probes", kept, res.Kept, probes)
	}
	for _, seq := range seqs {
		if n := len(KeptOnly(seq).Calls); n > len(seq.Calls) {
			t.Fatal("KeptOnly grew a sequence")
		}
	}
}

func TestConfigValidate(t *testing.T) {
	if err := DefaultConfig().Validate(); err != nil {
		t.Fatal(err)
	}
	bad := DefaultConfig()
	bad.Budget, bad.Alpha, bad.Users = 0, 1.5, -1
	err := bad.Validate()
	for _, want := range []string{"budget", "alpha", "users"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Validate() = %v, want a %s problem", err, want)
		}
	}
	if _, err := Generate(context.Background(), Contract{}, DefaultConfig()); err == nil {
		t.Error("Generate without a deployment succeeded")
	}
}
