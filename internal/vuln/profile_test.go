package vuln

import "testing"

// TestProfileDefaults: the paper's profile is the default and turns every
// seed strategy and the funding off, whatever the shares say; extended keeps
// them; an unknown name is refused.
func TestProfileDefaults(t *testing.T) {
	if DefaultConfig().Profile != ProfileSAEFUZZ {
		t.Fatalf("default profile %q, want saefuzz", DefaultConfig().Profile)
	}
	c := Config{CrossReentry: 0.9, GapHints: 0.9, Campaigns: 0.9}.withDefaults()
	if c.Profile != ProfileSAEFUZZ || c.CrossReentry >= 0 || c.GapHints >= 0 || c.Campaigns >= 0 || c.Fund.Sign() != 0 || c.has("fund") {
		t.Errorf("saefuzz config %+v: want every extension off", c)
	}
	e := Config{Profile: ProfileExtended}.withDefaults()
	d := DefaultConfig()
	if e.CrossReentry != d.CrossReentry || e.GapHints != d.GapHints || e.Campaigns != d.Campaigns || e.Fund.Cmp(d.Fund) != 0 || !e.has("fund") {
		t.Errorf("extended config %+v: want the default shares and funding", e)
	}
	if _, err := ParseProfile("paper"); err == nil {
		t.Error("profile paper parsed")
	}
}

// TestSAEFUZZProfileFundsNothing: under saefuzz the target keeps the
// balance its deployment gave it; under extended it holds Config.Fund
// (real EVM).
func TestSAEFUZZProfileFundsNothing(t *testing.T) {
	target := deployTestdata(t, "reentrancy.sol", "ReentrantBank")
	before := target.Chain.Balance(target.Address)
	for _, p := range Profiles {
		cfg := DefaultConfig()
		cfg.Profile = p
		e, err := newEngine(target, cfg.withDefaults())
		if err != nil {
			t.Fatal(err)
		}
		got := e.traced.Balance(target.Address)
		want := before
		if p == ProfileExtended {
			want = DefaultConfig().Fund
		}
		if got.Cmp(want) != 0 {
			t.Errorf("%s: target balance %s, want %s", p, got, want)
		}
	}
}

// TestProfileWithExtensions: saefuzz+<extension>... names saefuzz with
// exactly those extensions on, in one canonical order (one set, one name);
// an unknown or repeated extension, or another base, is refused.
func TestProfileWithExtensions(t *testing.T) {
	p, err := ParseProfile("saefuzz+repair+tx-edits")
	if err != nil {
		t.Fatal(err)
	}
	if p != "saefuzz+tx-edits+repair" {
		t.Errorf("profile %q, want the Extensions order saefuzz+tx-edits+repair", p)
	}
	for _, x := range Extensions {
		if want := x == "tx-edits" || x == "repair"; p.Has(x) != want {
			t.Errorf("%s.Has(%s) = %v, want %v", p, x, p.Has(x), want)
		}
		if ProfileSAEFUZZ.Has(x) || !ProfileExtended.Has(x) {
			t.Errorf("extension %s: saefuzz must have none, extended every one", x)
		}
	}
	for _, bad := range []string{"saefuzz+", "saefuzz+nope", "saefuzz+fund+fund", "extended+fund", "paper+fund"} {
		if _, err := ParseProfile(bad); err == nil {
			t.Errorf("profile %q parsed", bad)
		}
	}
	c := Config{Profile: "saefuzz+fund+campaigns"}.withDefaults()
	d := DefaultConfig()
	if c.Fund.Cmp(d.Fund) != 0 || c.Campaigns != d.Campaigns || c.CrossReentry >= 0 || c.GapHints >= 0 {
		t.Errorf("saefuzz+campaigns+fund config %+v: want funding and campaigns only", c)
	}
}
