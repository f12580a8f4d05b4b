package democorpus

import (
	"math/big"

	"github.com/ethereum/go-ethereum/common"
)

// step is one kind of user action in a scenario's mix. run issues at most one
// transaction; it may issue none when the action does not apply yet.
type step struct {
	weight int
	run    func()
}

// mixUntil repeats weighted random steps until done says stop (checked
// before each step) or the session failed. The guard stops scenarios whose
// steps keep finding nothing to do.
func (s *session) mixUntil(done func() bool, steps ...step) {
	total := 0
	for _, st := range steps {
		total += st.weight
	}
	for guard := 0; guard < 20_000 && s.err == nil && !done(); guard++ {
		pick := s.rng.IntN(total)
		for _, st := range steps {
			if pick < st.weight {
				st.run()
				break
			}
			pick -= st.weight
		}
	}
}

// mixCount runs steps until the history holds n transactions.
func (s *session) mixCount(n int, steps ...step) {
	s.mixUntil(func() bool { return len(s.txs) >= n }, steps...)
}

// user picks one of the history's users.
func (s *session) user() account { return s.pick(s.users) }

// pick picks one of the given accounts.
func (s *session) pick(from []account) account { return pickFrom(s, from) }

// pickFrom picks one of the given items (a method cannot take a type parameter).
func pickFrom[T any](s *session, from []T) T { return from[s.rng.IntN(len(from))] }

// pickWhere picks one of the items keep accepts; false when none does (then
// nothing is drawn).
func pickWhere[T any](s *session, from []T, keep func(T) bool) (T, bool) {
	var kept []T
	for _, item := range from {
		if keep(item) {
			kept = append(kept, item)
		}
	}
	if len(kept) == 0 {
		var none T
		return none, false
	}
	return pickFrom(s, kept), true
}

// userHolding picks a user whose uint getter (a balance, a stake) is above
// zero, within a few tries; false when the tries find none.
func (s *session) userHolding(getter string) (account, *big.Int, bool) {
	for range 6 {
		u := s.user()
		if held := s.viewUint(getter, u.Addr); held.Sign() > 0 {
			return u, held, true
		}
	}
	return account{}, nil, false
}

// addressesOf lists the accounts' addresses, as a contract's address[] argument.
func addressesOf(accounts []account) []common.Address {
	addrs := make([]common.Address, len(accounts))
	for i, a := range accounts {
		addrs[i] = a.Addr
	}
	return addrs
}

// chance is true with probability p.
func (s *session) chance(p float64) bool { return s.rng.Float64() < p }

// between draws an integer in [lo, hi].
func (s *session) between(lo, hi int) int { return lo + s.rng.IntN(hi-lo+1) }

// milliEther is n thousandths of an ether, in wei.
func milliEther(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), big.NewInt(1e15)) }

// amountEther draws an amount between lo and hi thousandths of an ether,
// skewed towards small ones and rounded the way people type amounts.
func (s *session) amountEther(lo, hi int64) *big.Int {
	f := s.rng.Float64()
	n := lo + int64(f*f*float64(hi-lo))
	switch {
	case n >= 1000:
		n = n / 50 * 50
	case n >= 100:
		n = n / 10 * 10
	}
	if n < lo {
		n = lo
	}
	return milliEther(n)
}

// fraction is a random share (1/den .. num/den) of v, at least 1 when v > 0.
func (s *session) fraction(v *big.Int, num, den int64) *big.Int {
	out := new(big.Int).Mul(v, big.NewInt(1+s.rng.Int64N(num)))
	out.Div(out, big.NewInt(den))
	if out.Sign() == 0 && v.Sign() > 0 {
		out.SetInt64(1)
	}
	return out
}

const (
	hour = 3600
	day  = 24 * hour
)
