package dcrgraph

import (
	"errors"
	"os"
	"slices"
	"testing"
)

// parseGifto reads the graph of the paper's Figure 3.
func parseGifto(t *testing.T) *Graph {
	t.Helper()
	data, err := os.ReadFile("testdata/gifto.json")
	if err != nil {
		t.Fatal(err)
	}
	g, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func loadGifto(t *testing.T) (*Graph, *Engine) {
	t.Helper()
	g := parseGifto(t)
	e, err := NewEngine(g)
	if err != nil {
		t.Fatal(err)
	}
	if ce := e.CompileErrors(); len(ce) > 0 {
		t.Fatal(ce)
	}
	return g, e
}

// TestGiftoFigure3 walks the graph of the paper's Figure 3 step by step,
// moving the contract's balance the way the calls would.
func TestGiftoFigure3(t *testing.T) {
	g, e := loadGifto(t)
	s := newFakeState()
	m := NewMarking(g)

	wantIDs(t, "prerequisites", g.Prerequisites(), "setAllowance")
	wantIDs(t, "initially enabled", enabled(t, e, m, s),
		"disableSale", "enableSale", "setAllowance", "transferFail", "withdrawEth")
	if !m.Accepting() {
		t.Fatal("initial marking must be accepting")
	}
	for _, id := range []string{"saleContinues", "transferFromSuccess"} {
		if _, err := e.Execute(m, id, s); !errors.Is(err, ErrNotEnabled) {
			t.Errorf("%s before its enabler: err = %v", id, err)
		}
	}

	m = exec(t, e, m, "enableSale", s)
	wantIDs(t, "enabled during sale", enabled(t, e, m, s),
		"disableSale", "enableSale", "saleContinues", "setAllowance", "transferFail", "withdrawEth")

	// Guards read the state before the step: the first purchase finds an
	// empty contract, so it creates no obligation to withdraw.
	m = exec(t, e, m, "saleContinues", s)
	if !m.Accepting() {
		t.Fatalf("purchase from an empty contract made %v pending", m.Obligations())
	}
	s.balance = ether(1)
	m = exec(t, e, m, "saleContinues", s)
	wantIDs(t, "obligations after a funded purchase", m.Obligations(), "withdrawEth")

	m = exec(t, e, m, "disableSale", s)
	if slices.Contains(enabled(t, e, m, s), "saleContinues") {
		t.Fatal("saleContinues enabled after disableSale")
	}
	if m.Accepting() {
		t.Fatal("closing the sale must not discharge withdrawEth")
	}
	m = exec(t, e, m, "withdrawEth", s)
	s.balance = Int64Value(0)
	if !m.Accepting() {
		t.Fatal("withdrawEth executed, marking must be accepting")
	}

	before := m.Clone()
	m = exec(t, e, m, "transferFail", s)
	if !slices.Equal(m.Included(), before.Included()) || !slices.Equal(m.Pending(), before.Pending()) {
		t.Error("isolated transferFail changed the marking beyond its own execution")
	}

	m = exec(t, e, m, "setAllowance", s)
	m = exec(t, e, m, "transferFromSuccess", s)
	m = exec(t, e, m, "enableSale", s)
	if !slices.Contains(enabled(t, e, m, s), "saleContinues") {
		t.Error("enableSale must include saleContinues again")
	}
	if got := m.Summary(); got != "ex=7 in=7 pe=0" {
		t.Errorf("final summary = %q", got)
	}
}

func TestGiftoPurchaseValue(t *testing.T) {
	g, _ := loadGifto(t)
	buy, _ := g.Event("saleContinues")
	wei, err := buy.Wei()
	if err != nil || wei.String() != "500000000000000000" {
		t.Errorf("saleContinues wei = %v, %v", wei, err)
	}
}
