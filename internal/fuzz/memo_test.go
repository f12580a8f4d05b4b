package fuzz

import (
	"reflect"
	"testing"
)

// TestMemoLeavesReportsAlone: with the memo (the default) and without it
// (Config.NoMemo) every campaign reports the same, counterexamples
// included, on the reference GiftToken's functions and on Figure 1's
// diverging Vault, while the memo answers a share of the calls.
func TestMemoLeavesReportsAlone(t *testing.T) {
	pairs := map[string]*pair{"GiftToken": deployPair(t, loadDemo(t, "GiftToken"), nil), "Figure 1 Vault": figure1Vault(t)}
	memoised, calls := 0, 0
	for name, p := range pairs {
		for _, m := range FuzzableMethods(p.orig.ABI) {
			cfg := p.config(42)
			cfg.Calls = 2000
			with := p.fuzz(t, m, cfg)
			cfg.NoMemo = true
			without := p.fuzz(t, m, cfg)
			if without.Memoised != 0 {
				t.Errorf("%s %s: %d calls memoised with the memo off", name, m.Sig, without.Memoised)
			}
			memoised, calls = memoised+with.Memoised, calls+2*with.Calls
			with.Memoised, with.Elapsed, without.Elapsed = 0, 0, 0
			if !reflect.DeepEqual(with, without) {
				t.Errorf("%s %s: the memo changed the report:\nwith    %+v\nwithout %+v", name, m.Sig, with, without)
			}
		}
	}
	t.Logf("%d of %d calls answered from the memo", memoised, calls)
	if memoised == 0 {
		t.Error("the memo answered no call: the comparison tests nothing")
	}
}
