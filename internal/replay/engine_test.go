package replay

import (
	"context"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/vm"

	"github.com/solbehave/solbehave/internal/chain"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/evmasm"
	"github.com/solbehave/solbehave/schemas"
)

// variant knobs of the test contract: each changes one comparison axis.
type variant struct {
	revertAlsoOn uint64 // also revert when x equals it (status)
	coldReads    int    // extra cold BALANCE reads (gas only)
	topicPlus    uint64 // added to the event topic (events)
	returnPlus   uint64 // added to the return value (return data)
	storePlus    uint64 // added to the stored value (storage, and the view)
	coldReadsOn  uint64 // extra cold BALANCE reads only when x equals it (gas on one path)
	coldReadsN   int    // how many
}

// testContract is runtime code: with 4 bytes of call data (a selector) it
// returns slot 0 (the `value()` view, and `poke()`); otherwise, with x the
// first word of call data, it reverts when x = 0, else stores x in slot 0,
// emits LOG1(topic x) and returns x.
func testContract(v variant) []byte {
	a := evmasm.New()
	a.Op(vm.CALLDATASIZE).Push(4).Op(vm.EQ).PushLabel("view").Op(vm.JUMPI)
	a.Push(0).Op(vm.CALLDATALOAD) // x
	a.Op(vm.DUP1, vm.ISZERO).PushLabel("revert").Op(vm.JUMPI)
	if v.revertAlsoOn != 0 {
		a.Op(vm.DUP1).Push(v.revertAlsoOn).Op(vm.EQ).PushLabel("revert").Op(vm.JUMPI)
	}
	for i := 0; i < v.coldReads; i++ {
		a.Push(uint64(0x1000+i)).Op(vm.BALANCE, vm.POP)
	}
	if v.coldReadsOn != 0 {
		a.Op(vm.DUP1).Push(v.coldReadsOn).Op(vm.EQ, vm.ISZERO).PushLabel("cheap").Op(vm.JUMPI)
		for i := 0; i < v.coldReadsN; i++ {
			a.Push(uint64(0x2000+i)).Op(vm.BALANCE, vm.POP)
		}
		a.Label("cheap")
	}
	a.Op(vm.DUP1).Push(v.storePlus).Op(vm.ADD).Push(0).Op(vm.SSTORE)
	a.Op(vm.DUP1).Push(0).Op(vm.MSTORE)
	a.Op(vm.DUP1).Push(v.topicPlus).Op(vm.ADD).Push(32).Push(0).Op(vm.LOG1)
	a.Push(v.returnPlus).Op(vm.ADD).Push(0).Op(vm.MSTORE)
	a.Push(32).Push(0).Op(vm.RETURN)
	a.Label("revert").Push(0).Op(vm.DUP1, vm.REVERT)
	a.Label("view").Push(0).Op(vm.SLOAD).Push(0).Op(vm.MSTORE).Push(32).Push(0).Op(vm.RETURN)
	return a.MustAssemble()
}

const testABI = `[
 {"type":"function","name":"value","inputs":[],"outputs":[{"name":"","type":"uint256"}],"stateMutability":"view"},
 {"type":"function","name":"poke","inputs":[],"outputs":[],"stateMutability":"nonpayable"},
 {"type":"function","name":"store","inputs":[{"name":"x","type":"uint256"}],"outputs":[],"stateMutability":"nonpayable"}
]`

var (
	deployer  = common.HexToAddress("0x00000000000000000000000000000000000d3b10")
	user      = common.HexToAddress("0x0000000000000000000000000000000000005e12")
	testBlock = chain.Block{Number: 15_000_000, Time: 1_650_000_000} // London rules
)

// deployVariant deploys the test contract the same way for every variant,
// so all land at the same address.
func deployVariant(t *testing.T, v variant) *deploy.Deployment {
	t.Helper()
	runtime := testContract(v)
	init := append([]byte{byte(vm.PUSH2), byte(len(runtime) >> 8), byte(len(runtime)), byte(vm.DUP1),
		byte(vm.PUSH1), 12, byte(vm.PUSH1), 0, byte(vm.CODECOPY), byte(vm.PUSH1), 0, byte(vm.RETURN)}, runtime...)
	h := chain.New(chain.Options{})
	res, err := h.Deploy(deployer, init, nil, testBlock)
	if err != nil || !res.Success {
		t.Fatalf("deploy: %v %+v", err, res)
	}
	parsed, err := abi.JSON(strings.NewReader(testABI))
	if err != nil {
		t.Fatal(err)
	}
	return &deploy.Deployment{Chain: h, Address: res.ContractAddress, Deployer: deployer, Block: testBlock, ABI: parsed}
}

func word(x uint64) []byte { return common.LeftPadBytes(new(big.Int).SetUint64(x).Bytes(), 32) }

// calls stores each x in turn (0 reverts), one block apart.
func calls(xs ...uint64) Sequence {
	var seq Sequence
	for i, x := range xs {
		b := chain.Block{Number: testBlock.Number + uint64(i+1), Time: testBlock.Time + 12*uint64(i+1)}
		seq.Calls = append(seq.Calls, Call{From: user, Data: word(x), Gas: 200_000, Block: b, TxHash: "c" + string(rune('0'+i))})
	}
	return seq
}

func compareOne(t *testing.T, v variant, opts Options, seqs ...Sequence) (*Result, []schemas.ReplayCall) {
	t.Helper()
	ref := deployVariant(t, variant{})
	res, err := Compare(context.Background(), ref, []Sample{{Model: "m", Deployment: deployVariant(t, v)}}, seqs, opts)
	if err != nil {
		t.Fatal(err)
	}
	return res, res.CallRows(Labels{ContractID: "c", Oracle: schemas.OracleO2})
}

// axes names the axes a row flags.
func axes(r schemas.ReplayCall) string {
	var out []string
	if !r.StatusMatch {
		out = append(out, "status")
	}
	if r.GasFlag {
		out = append(out, "gas")
	}
	if r.NEventsRef != r.NEventsSample || r.TopicsRefSHA256 != r.TopicsSampleSHA256 {
		out = append(out, "events")
	}
	if r.ReturnRefSHA256 != r.ReturnSampleSHA256 {
		out = append(out, "return")
	}
	if r.StorageWritesRefSHA256 != r.StorageWritesSampleSHA256 {
		out = append(out, "storage")
	}
	return strings.Join(out, "+")
}

func TestEachAxisFlagsOnlyItsOwnDifference(t *testing.T) {
	cases := []struct {
		name string
		v    variant
		want []string // per call of 0, 3, 7, 9
	}{
		{"identical", variant{}, []string{"", "", "", ""}},
		{"status", variant{revertAlsoOn: 7}, []string{"", "", "status+gas+events+return+storage", ""}},
		{"gas", variant{coldReads: 4}, []string{"", "gas", "gas", "gas"}},
		{"events", variant{topicPlus: 1}, []string{"", "events", "events", "events"}},
		{"return", variant{returnPlus: 1}, []string{"", "return", "return", "return"}},
		{"storage", variant{storePlus: 1}, []string{"", "storage", "storage", "storage"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, rows := compareOne(t, c.v, Options{}, calls(0, 3, 7, 9))
			if len(rows) != 4 {
				t.Fatalf("%d rows", len(rows))
			}
			for i, r := range rows {
				if got := axes(r); got != c.want[i] {
					t.Errorf("call %d (%s): flags %q, want %q (%+v)", i, r.TxHash, got, c.want[i], r)
				}
			}
			if rows[0].StatusRef != schemas.StatusRevert || rows[0].TopicsRefSHA256 != "" || rows[1].NEventsRef != 1 {
				t.Errorf("reverted call carries receipt fields, or the event went missing: %+v", rows[:2])
			}
		})
	}
}

func TestSummariesAndSnapshots(t *testing.T) {
	res, rows := compareOne(t, variant{storePlus: 1}, Options{SnapshotEvery: 2}, calls(1, 2, 3, 4, 5))
	sum := summarize(t, rows)[0]
	if sum.Divergent || sum.Calls != 5 || sum.SecondaryOnly != 5 || sum.StorageDiffers != 5 {
		t.Errorf("summary %+v", sum)
	}
	views := res.ViewRows(Labels{ContractID: "c", Oracle: schemas.OracleO2})
	var after []int64
	for _, v := range views {
		if v.Function != "value" {
			t.Fatalf("read %s: only zero-argument views are snapshot", v.Function)
		}
		after = append(after, v.AfterCalls)
		if v.Match != (v.AfterCalls == 0) {
			t.Errorf("after %d calls: match %v (%s vs %s)", v.AfterCalls, v.Match, v.ValueRef, v.ValueSample)
		}
	}
	if got := fmt.Sprint(after); got != "[0 2 4 5]" {
		t.Errorf("snapshots after %s calls, want [0 2 4 5]", got)
	}
	if last := views[len(views)-1]; last.ValueRef != "5" || last.ValueSample != "6" {
		t.Errorf("last snapshot %+v", last)
	}
}

func TestSequencesStartFreshAndProbesLeaveNoTrace(t *testing.T) {
	probe := calls(8)
	probe.Calls[0].Probe = true
	second := calls(4)
	second.ID = 1
	first := calls(3)
	first.Calls = append(first.Calls, probe.Calls[0])
	res, rows := compareOne(t, variant{}, Options{SnapshotEvery: 1}, first, second)
	if len(rows) != 3 || !rows[1].Probe || rows[1].StatusRef != schemas.StatusSuccess {
		t.Fatalf("rows %+v", rows)
	}
	values := map[[2]int64]string{}
	for _, v := range res.ViewRows(Labels{}) {
		values[[2]int64{v.Seq, v.AfterCalls}] = v.ValueRef
	}
	// The probe stored 8 and was rolled back; sequence 1 starts from 0, not 3.
	want := map[[2]int64]string{{0, 0}: "0", {0, 1}: "3", {0, 2}: "3", {1, 0}: "0", {1, 1}: "4"}
	if fmt.Sprint(values) != fmt.Sprint(want) {
		t.Errorf("view values %v, want %v", values, want)
	}
}

func TestUndeployedSampleDisagreesOnEveryCall(t *testing.T) {
	ref := deployVariant(t, variant{})
	samples := []Sample{{Model: "m", Sample: 3, DeployErr: "deploy failed: constructor reverted"}}
	res, err := Compare(context.Background(), ref, samples, []Sequence{calls(0, 1, 2)}, Options{SnapshotEvery: 10})
	if err != nil {
		t.Fatal(err)
	}
	rows := res.CallRows(Labels{})
	for _, r := range rows {
		if r.StatusMatch || r.StatusSample != schemas.StatusUndeployed || r.RevertReasonSample == "" || r.Sample != 3 {
			t.Errorf("row %+v", r)
		}
	}
	if s := summarize(t, rows)[0]; !s.Divergent || s.FirstStep == nil || *s.FirstStep != 0 || len(rows) != 3 {
		t.Errorf("summary %+v", s)
	}
	for _, v := range res.ViewRows(Labels{}) {
		if v.Match || v.StatusSample != schemas.StatusUndeployed {
			t.Errorf("view %+v", v)
		}
	}
}

func TestWorkersGiveTheSameRows(t *testing.T) {
	ref := deployVariant(t, variant{})
	var samples []Sample
	for i, v := range []variant{{}, {storePlus: 2}, {revertAlsoOn: 5}, {coldReads: 3}, {topicPlus: 9}} {
		samples = append(samples, Sample{Model: "m", Sample: int64(i), Deployment: deployVariant(t, v)})
	}
	seqs := []Sequence{calls(5, 0, 2, 9, 5)}
	var got []string
	for _, workers := range []int{1, 4} {
		res, err := Compare(context.Background(), ref, samples, seqs, Options{SnapshotEvery: 2, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprint(res.CallRows(Labels{}))+fmt.Sprint(res.ViewRows(Labels{})))
	}
	if got[0] != got[1] {
		t.Error("rows depend on the number of workers")
	}
}

func TestCoverageCountsStateChangingFunctions(t *testing.T) {
	ref := deployVariant(t, variant{})
	parsed := ref.ABI
	poke := calls(1)
	poke.Calls[0].Data = parsed.Methods["poke"].ID
	value := calls(1)
	value.Calls[0].Data = parsed.Methods["value"].ID
	seq := calls(0, 4)
	seq.Calls = append(seq.Calls, poke.Calls[0], value.Calls[0], poke.Calls[0])
	res, err := Compare(context.Background(), ref, nil, []Sequence{seq}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	cov := res.CoverageRows(Labels{Oracle: schemas.OracleO2}, "")
	// store(uint256) is never called by selector (raw words are not), poke twice; value is a view.
	if got := fmt.Sprint(cov); !strings.Contains(got, "poke 0x18178358 2 2") || !strings.Contains(got, "store 0x6057361d 0 0") || len(cov) != 2 {
		t.Errorf("coverage %s", got)
	}
}

func TestHistoryKeepsSenderValueGasAndBlock(t *testing.T) {
	tx := deploy.Tx{From: common.HexToAddress("0xaa"), Hash: "0x01", Input: []byte{1, 2, 3, 4, 5}, Value: new(big.Int),
		Gas: 90000, Block: chain.Block{Number: 123}}
	seq := History([]deploy.Tx{tx})
	c := seq.Calls[0]
	if c.From != tx.From || c.Gas != 90000 || c.Block.Number != 123 || c.TxHash != "0x01" ||
		len(c.Data) != 5 || c.Value.Sign() != 0 {
		t.Errorf("call %+v", c)
	}
}

// A sample that spends more gas on one path runs out of the recorded limit
// there: the call stays a divergence and is marked gas_limited, because the
// same call with a generous limit succeeds; a logic divergence is not marked.
func TestGasOnlyDivergenceIsMarked(t *testing.T) {
	heavy := variant{coldReadsOn: 7, coldReadsN: 80} // 80 cold reads: over 200,000 gas on x = 7 only
	_, rows := compareOne(t, heavy, Options{}, calls(3, 7, 9))
	for i, want := range []bool{false, true, false} {
		r := rows[i]
		if r.GasLimited != want || r.StatusMatch == want {
			t.Errorf("call %d: gas_limited %v status_match %v, want gas_limited %v (%+v)", i, r.GasLimited, r.StatusMatch, want, r)
		}
	}
	if !strings.Contains(rows[1].RevertReasonSample, "out of gas") {
		t.Errorf("the heavy path should run out of gas: %q", rows[1].RevertReasonSample)
	}
	// With no recorded limit (the default gas) the heavy path agrees.
	generous := calls(3, 7, 9)
	for i := range generous.Calls {
		generous.Calls[i].Gas = 0
	}
	if _, rows := compareOne(t, heavy, Options{}, generous); !rows[1].StatusMatch || rows[1].GasLimited {
		t.Errorf("with the default gas the heavy path should agree: %+v", rows[1])
	}
	_, rows = compareOne(t, variant{revertAlsoOn: 7}, Options{}, calls(3, 7, 9))
	if rows[1].StatusMatch || rows[1].GasLimited {
		t.Errorf("a logic divergence is not gas-limited: %+v", rows[1])
	}
}
