package dcrgraph

import (
	"errors"
	"math/big"
	"strings"
	"testing"
)

func mustGuard(t *testing.T, src string, consts map[string]string) *Guard {
	t.Helper()
	g, err := CompileGuard(src, consts)
	if err != nil {
		t.Fatalf("compile %q: %v", src, err)
	}
	return g
}

func evalString(t *testing.T, src string, s State) string {
	t.Helper()
	v, err := mustGuard(t, src, nil).Eval(s)
	if err != nil {
		t.Fatalf("eval %q: %v", src, err)
	}
	return v.String()
}

// expectEvals evaluates each guard source of cases in s and compares the
// value's text with the one given.
func expectEvals(t *testing.T, s State, cases map[string]string) {
	t.Helper()
	for src, want := range cases {
		if got := evalString(t, src, s); got != want {
			t.Errorf("%s = %s, want %s", src, got, want)
		}
	}
}

func TestGuardPrecedence(t *testing.T) {
	cases := []struct{ src, tree string }{
		{"1 + 2 * 3", "(1 + (2 * 3))"},
		{"(1 + 2) * 3", "((1 + 2) * 3)"},
		{"a - b - c", "((a - b) - c)"},
		{"a / b % c", "((a / b) % c)"},
		{"a || b && c", "(a || (b && c))"},
		{"a && b || c", "((a && b) || c)"},
		{"a == b < c", "(a == (b < c))"},
		{"a + 1 > b * 2 && !c", "(((a + 1) > (b * 2)) && (!c))"},
		{"2 ** 3 ** 2", "(2 ** (3 ** 2))"},
		{"-2 ** 2", "((-2) ** 2)"},
		{"x * 2 ** 3", "(x * (2 ** 3))"},
		{"!!done", "(!(!done))"},
		{"a != b == c", "((a != b) == c)"},
	}
	for _, c := range cases {
		if got := mustGuard(t, c.src, nil).String(); got != c.tree {
			t.Errorf("%q parsed as %s, want %s", c.src, got, c.tree)
		}
	}
}

func TestGuardArithmetic(t *testing.T) {
	s := newFakeState()
	cases := map[string]string{
		"1 + 2 * 3":                     "7",
		"2 ** 3 ** 2":                   "512",
		"-2 ** 2":                       "4",
		"7 / 2":                         "3",
		"-7 / 2":                        "-3", // truncation toward zero, as Solidity
		"-7 % 3":                        "-1",
		"10 - 20":                       "-10",
		"3 > 2 == true":                 "true",
		"1 <= 1 && 2 >= 3 || !(1 != 1)": "true",
	}
	expectEvals(t, s, cases)
}

func TestGuardLiterals(t *testing.T) {
	s := newFakeState()
	cases := map[string]string{
		"1 ether":     "1000000000000000000",
		"0.5 ether":   "500000000000000000",
		"2 gwei":      "2000000000",
		"3 finney":    "3000000000000000",
		"4 szabo":     "4000000000000",
		"5 wei":       "5",
		"1 days":      "86400",
		"2 weeks":     "1209600",
		"1e18":        "1000000000000000000",
		"2.5e3":       "2500",
		"1_000_000":   "1000000",
		"0xff":        "255",
		"0x0":         "0",
		"0xFF_FF":     "65535",
		".5 ether":    "500000000000000000",
		"1e-0":        "1",
		"25e-1 ether": "2500000000000000000",
		"0x00000000000000000000000000000000000000ff": "0x00000000000000000000000000000000000000ff",
	}
	expectEvals(t, s, cases)
	v, _ := mustGuard(t, "0x000000000000000000000000000000000000dEaD", nil).Eval(s)
	if v.Kind() != KindAddress {
		t.Errorf("40-digit hex literal is %s, want address", v.Kind())
	}
	for _, bad := range []string{"0.5", "1e300", "1ether", "0x", "1__0", "1_", "ether", "1e", "0xfg"} {
		if _, err := ParseGuard(bad); err == nil {
			t.Errorf("%q compiled, want an error", bad)
		}
	}
}

func TestGuardStateReads(t *testing.T) {
	s := newFakeState().set("cap", Int64Value(100)).set("owner", AddressValue(addr(0xa11ce))).set("paused", BoolValue(false))
	s.setMapping("balances", AddressValue(addr(0xa11ce)), Int64Value(42))
	s.setMapping("balances", Int64Value(7), Int64Value(3))
	s.balance = ether(2)
	cases := map[string]string{
		"balances[msg.sender] >= 42": "true",
		"balances[msg.sender] > 42":  "false",
		"balances[7] == 3":           "true",
		"balances[0x00000000000000000000000000000000000a11ce] == 42": "true",
		"msg.sender == owner":          "true",
		"owner != 0x0":                 "true",
		"owner != address(0)":          "true",
		"!paused && cap() == this.cap": "true",
		"address(this).balance":        "2000000000000000000",
		"this.balance > 1 ether":       "true",
		"balances[address(0)]":         "0",
	}
	expectEvals(t, s, cases)
	if got := mustGuard(t, "balances[msg.sender] > cap && !paused", nil).StateVars(); strings.Join(got, ",") != "balances,cap,paused" {
		t.Errorf("StateVars = %v", got)
	}
}

func TestGuardSenderIsTheKeyPassed(t *testing.T) {
	s := newFakeState()
	s.sender = AddressValue(addr(0xb0b))
	s.setMapping("allowed", AddressValue(addr(0xa11ce)), Int64Value(5))
	ok, err := mustGuard(t, "allowed[msg.sender] > 0", nil).Holds(s)
	if err != nil || ok {
		t.Errorf("bob has no allowance: ok=%v err=%v", ok, err)
	}
	s.sender = AddressValue(addr(0xa11ce))
	if ok, err := mustGuard(t, "allowed[msg.sender] > 0", nil).Holds(s); err != nil || !ok {
		t.Errorf("alice has one: ok=%v err=%v", ok, err)
	}
}

func TestGuardBlockNeedsChain(t *testing.T) {
	s := newFakeState().set("deadline", Int64Value(1000))
	s.setMapping("balances", AddressValue(addr(0xc0de)), Int64Value(9))
	c := chainState{fakeState: s, time: 999, number: 12}
	for src, want := range map[string]string{
		"now < deadline":                      "true",
		"block.timestamp + 1 days > deadline": "true",
		"block.number":                        "12",
		"address(this) == 0x000000000000000000000000000000000000c0de": "true",
		"balances[this]": "9",
	} {
		if got := evalString(t, src, c); got != want {
			t.Errorf("%s = %s, want %s", src, got, want)
		}
	}
	for _, src := range []string{"now < deadline", "block.number > 0", "address(this) != address(0)"} {
		if _, err := mustGuard(t, src, nil).Eval(s); err == nil {
			t.Errorf("%q evaluated without Chain/Self", src)
		}
	}
}

func TestGuardConstants(t *testing.T) {
	consts := map[string]string{
		"DECIMALS": "5",
		"SUPPLY":   "10**9 * 10**DECIMALS",
		"ENABLED":  "true",
	}
	s := newFakeState().set("totalSold", Int64Value(7))
	g := mustGuard(t, "totalSold < SUPPLY && ENABLED", consts)
	if ok, err := g.Holds(s); err != nil || !ok {
		t.Errorf("holds = %v, %v", ok, err)
	}
	if got := g.String(); got != "((totalSold < SUPPLY) && ENABLED)" {
		t.Errorf("String = %s", got)
	}
	if got := g.StateVars(); len(got) != 1 || got[0] != "totalSold" {
		t.Errorf("constants listed as state: %v", got)
	}
	bad := map[string]map[string]string{
		"A > 0":     {"A": "B", "B": "A"},
		"LIMIT > 0": {"LIMIT": "cap * 2"},
		"X > 0":     {"X": "1 +"},
		"M[1] > 0":  {"M": "1"},
	}
	for src, c := range bad {
		if _, err := CompileGuard(src, c); err == nil {
			t.Errorf("%q with %v compiled", src, c)
		}
	}
}

func TestGuardCasts(t *testing.T) {
	s := newFakeState()
	maxU := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1)).String()
	cases := map[string]string{
		"uint256(-1)":         maxU,
		"uint(-1)":            maxU,
		"type(uint256).max":   maxU,
		"type(int8).min":      "-128",
		"uint8(300)":          "44",
		"int8(255)":           "-1",
		"uint160(address(1))": "1",
		"address(0x1)":        "0x0000000000000000000000000000000000000001",
	}
	expectEvals(t, s, cases)
}

func TestGuardErrors(t *testing.T) {
	s := newFakeState().set("zero", Int64Value(0)).set("flag", BoolValue(true))
	unsupported := []string{
		"", "a & b", "a | b", "a ? b : c", "a = 1", "x.y > 0", "m[a][b] > 0",
		"f(1)", "msg.value > 0", "tx.origin == owner", "address(owner).balance > 0",
		"(1 + 2", "1 +", "1 2", "]", "uint7(1)", "type(address).max", "'a' == 'a'",
		"m[1].x", strings.Repeat("(", 1100) + "1" + strings.Repeat(")", 1100), strings.Repeat("!", 250) + "true",
	}
	for _, src := range unsupported {
		if _, err := ParseGuard(src); err == nil {
			t.Errorf("%q compiled, want an error", src)
		}
	}
	failing := map[string]string{
		"unknownVar > 0":                 "unknownVar",
		"missing[1] > 0":                 "missing",
		"10 / zero > 0":                  "division by zero",
		"10 % zero > 0":                  "division by zero",
		"1 && true":                      "bool",
		"flag + 1 > 0":                   "integer",
		"flag < 1":                       "order",
		"flag == 1":                      "compare",
		"2 ** -1 > 0":                    "negative exponent",
		"2 ** 5000 > 0":                  "exceeds",
		"3 ** 9223372036854775807 > 0":   "exceeds",
		"5 ** 9223372036854775807 > 0":   "exceeds",
		"2 ** 2 ** 2 ** 2 ** 2 ** 2 > 0": "exceeds",
		"1 + 1":                          "not bool",
		"address(-1) == 0":               "fit",
	}
	for src, want := range failing {
		_, err := mustGuard(t, src, nil).Holds(s)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err = %v, want one mentioning %q", src, err, want)
		}
	}
	if _, err := mustGuard(t, "1 / zero == 0", nil).Holds(s); !errors.Is(err, ErrDivisionByZero) {
		t.Errorf("err = %v, want ErrDivisionByZero", err)
	}
}

func TestGuardShortCircuits(t *testing.T) {
	s := newFakeState().set("d", Int64Value(0))
	for src, want := range map[string]bool{
		"d != 0 && 10 / d > 1": false,
		"d == 0 || 10 / d > 1": true,
		"d == 0 || unknown":    true,
	} {
		got, err := mustGuard(t, src, nil).Holds(s)
		if err != nil || got != want {
			t.Errorf("%s = %v, %v; want %v", src, got, err, want)
		}
	}
}

// TestEngineReportsGuardFailures checks the two failures the brief names end
// to end: the relation is absent and the GuardError unwraps to the cause.
func TestEngineReportsGuardFailures(t *testing.T) {
	e, m := engine(t, []Event{ev("a"), ev("b"), ev("c")},
		guarded(Condition, "a", "b", "ghost > 0"),
		guarded(Condition, "a", "c", "total / count > 1"))
	s := newFakeState().set("total", Int64Value(10)).set("count", Int64Value(0))
	ids, errs := e.Enabled(m, s)
	wantIDs(t, "enabled", ids, "a", "b", "c")
	if len(errs) != 2 || !strings.Contains(errs[0].Error(), "ghost") || !errors.Is(errs[1], ErrDivisionByZero) {
		t.Fatalf("guard errors = %v", errs)
	}
	s.set("count", Int64Value(2))
	ids, errs = e.Enabled(m, s)
	wantIDs(t, "enabled once the guard evaluates", ids, "a", "b")
	if len(errs) != 1 {
		t.Errorf("guard errors = %v, want only ghost", errs)
	}
}

func TestGuardStringRoundTrips(t *testing.T) {
	for _, src := range []string{
		"balances[msg.sender] >= 1 ether && !paused",
		"now > start + 30 days || block.number % 2 == 0",
		"-x ** 2 - -3 < uint8(y) && address(this).balance != 0",
		"this.balance > 0 && owner == address(0x1) && this != address(0)",
	} {
		g := mustGuard(t, src, nil)
		again := mustGuard(t, g.String(), nil)
		if again.String() != g.String() {
			t.Errorf("%q: %s reparsed as %s", src, g.String(), again.String())
		}
	}
}

func TestWordValue(t *testing.T) {
	word := make([]byte, 32)
	for i := range word {
		word[i] = 0xff
	}
	if v := WordValue(word, true); v.String() != "-1" {
		t.Errorf("signed all-ones = %s", v)
	}
	if v := WordValue(word, false); v.String() != new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1)).String() {
		t.Errorf("unsigned all-ones = %s", v)
	}
	if v := WordValue([]byte{0x7f}, true); v.String() != "127" {
		t.Errorf("0x7f signed = %s", v)
	}
}
