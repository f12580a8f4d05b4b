package dcrextract

import (
	"math/big"
	"os"
	"slices"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/solbehave/solbehave/internal/dcrgraph"
	"github.com/solbehave/solbehave/internal/deploy"
	"github.com/solbehave/solbehave/internal/deploy/deploytest"
	"github.com/solbehave/solbehave/internal/guardstate"
)

// figure3IDs maps the event ids of internal/dcrgraph/testdata/gifto.json (the
// paper's Figure 3, with GIFTO's reconstructed names) to the events the
// static extractor names in the demo corpus's GiftToken.
var figure3IDs = map[string]string{
	"enableSale":          "enableSaleSuccess",
	"disableSale":         "disableSaleSuccess",
	"saleContinues":       "buySuccess",
	"withdrawEth":         "withdrawEthSuccess",
	"setAllowance":        "approveSuccess",
	"transferFromSuccess": "transferFromSuccess",
	"transferFail":        "transferFail",
}

func staticGift(t *testing.T) (*Result, *demoContract) {
	t.Helper()
	d := loadDemo(t, "GiftToken")
	res, err := Static(FromRecord(d.rec, d.out))
	if err != nil {
		t.Fatal(err)
	}
	return res, d
}

func hasRelation(g *dcrgraph.Graph, typ dcrgraph.RelationType, src, dst string) (dcrgraph.Relation, bool) {
	for _, r := range g.Relations {
		if r.Type == typ && r.Source == src && r.Target == dst {
			return r, true
		}
	}
	return dcrgraph.Relation{}, false
}

// TestStaticGiftTokenMatchesFigure3 compares the static extraction of the
// GIFTO-like GiftToken with the paper's Figure 3 graph, relation by relation,
// event by event.
func TestStaticGiftTokenMatchesFigure3(t *testing.T) {
	raw, err := os.ReadFile("../dcrgraph/testdata/gifto.json")
	if err != nil {
		t.Fatal(err)
	}
	fig, err := dcrgraph.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	res, _ := staticGift(t)
	g := res.Graph
	for _, want := range fig.Relations {
		src, dst := figure3IDs[want.Source], figure3IDs[want.Target]
		got, ok := hasRelation(g, want.Type, src, dst)
		if !ok {
			t.Errorf("Figure 3 has %s %s -> %s; the static graph has no %s %s -> %s", want.Type, want.Source, want.Target, want.Type, src, dst)
			continue
		}
		if want.Type == dcrgraph.Response && got.Guard != want.Guard {
			t.Errorf("response guard %q, Figure 3 says %q", got.Guard, want.Guard)
		}
	}
	for _, fe := range fig.Events {
		e, ok := g.Event(figure3IDs[fe.ID])
		if !ok {
			t.Errorf("no event %s (Figure 3's %s)", figure3IDs[fe.ID], fe.ID)
			continue
		}
		if e.Role != fe.Role || e.Included != fe.Included || e.Branch != fe.Branch {
			t.Errorf("%s: role %s included %v branch %s; Figure 3's %s: role %s included %v branch %s",
				e.ID, e.Role, e.Included, e.Branch, fe.ID, fe.Role, fe.Included, fe.Branch)
		}
	}
	for _, r := range g.Relations {
		if r.Source == "transferFail" || r.Target == "transferFail" {
			t.Errorf("transferFail should be isolated, has %s %s -> %s", r.Type, r.Source, r.Target)
		}
	}
}

// TestStaticGiftTokenOnChain drives the static graph with the DCR engine
// over the deployed GiftToken, reading guards from the chain, and executes
// each allowed step on the contract: the graph's lifecycle is the contract's.
func TestStaticGiftTokenOnChain(t *testing.T) {
	res, d := staticGift(t)
	eng, err := dcrgraph.NewEngine(res.Graph)
	if err != nil {
		t.Fatal(err)
	}
	dep := deploytest.DeployTarget(t, d.rec, d.out)
	layout, err := guardstate.LayoutOf(d.out, nil, "GiftToken")
	if err != nil {
		t.Fatal(err)
	}
	w := &walk{t: t, eng: eng, g: res.Graph, dep: dep, m: dcrgraph.NewMarking(res.Graph),
		state: guardstate.ForDeployment(dep, dep.Chain, layout)}
	buyer := common.HexToAddress("0x00000000000000000000000000000000000b0b00")

	w.notEnabled("buySuccess", dep.Deployer) // excluded until the sale opens
	w.notEnabled("transferFromSuccess", buyer)
	w.step("enableSaleSuccess", dep.Deployer)
	// Guards are read before each step (internal/dcrgraph): the response's
	// `balance > 0` holds from the second purchase on.
	w.step("buySuccess", buyer)
	w.step("buySuccess", buyer)
	if !w.m.IsPending("withdrawEthSuccess") || w.m.Accepting() {
		t.Fatal("a purchase leaves ether to withdraw: withdrawEth should be pending")
	}
	w.step("disableSaleSuccess", dep.Deployer)
	w.notEnabled("buySuccess", buyer)
	w.step("withdrawEthSuccess", dep.Deployer)
	if !w.m.Accepting() {
		t.Fatalf("after the withdrawal nothing is pending: %s", w.m.Summary())
	}
	w.step("approveSuccess", dep.Deployer)
	if !slices.Contains(w.enabled(buyer), "transferFromSuccess") {
		t.Fatal("transferFrom is enabled once an allowance was set")
	}
}

type walk struct {
	t     *testing.T
	eng   *dcrgraph.Engine
	g     *dcrgraph.Graph
	dep   *deploy.Deployment
	m     *dcrgraph.Marking
	state *guardstate.State
}

func (w *walk) enabled(from common.Address) []string {
	ids, errs := w.eng.Enabled(w.m, w.state.At(from, w.dep.Block))
	if len(errs) > 0 {
		w.t.Fatalf("guard errors: %v", errs)
	}
	return ids
}

func (w *walk) notEnabled(id string, from common.Address) {
	w.t.Helper()
	if slices.Contains(w.enabled(from), id) {
		w.t.Fatalf("%s should not be enabled (%s)", id, w.m.Summary())
	}
}

// step executes an event in the graph and on the chain, with its proposed
// arguments, and insists that the contract accepts it.
func (w *walk) step(id string, from common.Address) {
	w.t.Helper()
	next, err := w.eng.Execute(w.m, id, w.state.At(from, w.dep.Block))
	if err != nil {
		w.t.Fatal(err)
	}
	ev, _ := w.g.Event(id)
	data, value := callData(w.t, w.dep, ev)
	res, err := w.dep.Chain.Call(from, w.dep.Address, data, value, w.dep.Block)
	if err != nil || !res.Success {
		w.t.Fatalf("%s reverted on chain: %v %v", id, err, res.Err)
	}
	w.m = next
}

// callData encodes an event's call with its proposed arguments.
func callData(t *testing.T, dep *deploy.Deployment, ev dcrgraph.Event) ([]byte, *big.Int) {
	t.Helper()
	value, err := ev.Wei()
	if err != nil {
		t.Fatal(err)
	}
	if ev.Function == "" {
		return nil, value
	}
	m, ok := dep.ABI.Methods[ev.Function]
	if !ok {
		t.Fatalf("no method %s", ev.Function)
	}
	var args []any
	for i, a := range ev.Args {
		switch m.Inputs[i].Type.String() {
		case "address":
			args = append(args, common.HexToAddress(a.Value.Text))
		case "uint256":
			n, err := a.Value.Integer()
			if err != nil {
				t.Fatal(err)
			}
			args = append(args, n)
		default:
			t.Fatalf("test encoder: unsupported type %s", m.Inputs[i].Type)
		}
	}
	packed, err := m.Inputs.Pack(args...)
	if err != nil {
		t.Fatal(err)
	}
	return append(m.ID, packed...), value
}
