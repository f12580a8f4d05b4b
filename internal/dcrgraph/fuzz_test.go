package dcrgraph

import "testing"

// FuzzParseGuard checks that the guard parser never panics, that whatever
// it accepts renders to text that parses back to the same tree, and that
// evaluating it on a state never panics either.
func FuzzParseGuard(f *testing.F) {
	for _, seed := range []string{
		"address(this).balance > 0",
		"balances[msg.sender] >= 1 ether && !paused",
		"now > start + 30 days || block.number % 2 == 0",
		"2 ** 3 ** 2 == 512",
		"uint256(-1) > type(int8).min",
		"this.balance > 0.5 ether",
		"0x000000000000000000000000000000000000dEaD != owner",
		"1e18 / zero > 1_000",
		"((((a))))", "m[m[1]]", "-x ** -y", "!!!true", "x()", "this.y()", "1 ? 2 : 3",
	} {
		f.Add(seed)
	}
	s := chainState{fakeState: newFakeState(), time: 1_700_000_000, number: 18_000_000}
	s.set("a", Int64Value(3)).set("paused", BoolValue(false)).set("zero", Int64Value(0)).set("owner", AddressValue(addr(1)))
	s.setMapping("balances", s.sender, ether(1)).setMapping("m", Int64Value(1), Int64Value(1))
	f.Fuzz(func(t *testing.T, src string) {
		g, err := ParseGuard(src)
		if err != nil {
			return
		}
		text := g.String()
		again, err := ParseGuard(text)
		if err != nil {
			t.Fatalf("%q renders as %q, which does not parse: %v", src, text, err)
		}
		if again.String() != text {
			t.Fatalf("%q renders as %q, which reparses as %q", src, text, again.String())
		}
		_, _ = g.Eval(s)
		_, _ = g.Holds(newFakeState())
	})
}
