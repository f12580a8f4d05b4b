package democorpus

import (
	"math/big"
)

// harborTokens is n whole tokens of 18 decimals.
func harborTokens(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), big.NewInt(1e18)) }

type harborPlay struct {
	s       *session
	holders []account
	allowed [][2]int // (owner, spender) indexes into users, in the order they approved
}

// harborScenario: the owner mints allocations to 24 holders (a stranger's
// mint and one past the cap revert); holders transfer, approve and spend
// allowances; the owner pauses for a few hours (every transfer then reverts) and
// unpauses; later the owner mints a second round. Reverts: transfers above
// the balance, spending without allowance, anything during the pause.
// Never called: renounceOwnership, transferOwnership.
func harborScenario(s *session) {
	p := &harborPlay{s: s, holders: s.users[:24]}
	owner := s.deployer
	s.maxGap = 30
	for _, h := range p.holders {
		s.call(owner, nil, "mint", h.Addr, harborTokens(int64(s.between(1, 400))*1000))
	}
	s.call(s.user(), nil, "mint", s.user().Addr, harborTokens(1000)) // not the owner: reverts
	s.call(owner, nil, "mint", owner.Addr, harborTokens(60_000_000)) // past the cap: reverts
	s.maxGap = 400
	steps := []step{
		{30, p.transfer},
		{4, p.overdraw},
		{8, p.approve},
		{8, p.spend},
		{2, p.spendUnapproved},
	}
	s.mixCount(100, steps...)
	s.call(owner, nil, "pause")
	pauseEnd := s.now() + 3*hour
	s.mixUntil(func() bool { return s.now() > pauseEnd }, step{1, p.transfer}) // paused: reverts
	s.call(owner, nil, "unpause")
	s.mixCount(170, steps...)
	for _, h := range p.holders[:6] {
		s.call(owner, nil, "mint", h.Addr, harborTokens(int64(s.between(1, 50))*1000))
	}
	s.mixCount(211, steps...)
}

// holder picks an account with tokens.
func (p *harborPlay) holder() (account, *big.Int, bool) { return p.s.userHolding("balanceOf") }

func (p *harborPlay) transfer() {
	if a, b, ok := p.holder(); ok {
		p.s.call(a, nil, "transfer", p.s.user().Addr, p.s.fraction(b, 6, 10))
	}
}

// overdraw sends more than the balance: reverts.
func (p *harborPlay) overdraw() {
	if a, b, ok := p.holder(); ok {
		p.s.call(a, nil, "transfer", p.s.user().Addr, new(big.Int).Add(b, harborTokens(1)))
	}
}

func (p *harborPlay) approve() {
	o, sp := p.s.rng.IntN(len(p.s.users)), p.s.rng.IntN(len(p.s.users))
	if o != sp && p.s.call(p.s.users[o], nil, "approve", p.s.users[sp].Addr, harborTokens(int64(p.s.between(1, 200))*100)) {
		p.allowed = append(p.allowed, [2]int{o, sp})
	}
}

// spend moves tokens with an allowance (reverts when the owner's balance or
// the allowance is short).
func (p *harborPlay) spend() {
	if len(p.allowed) == 0 {
		return
	}
	pair := pickFrom(p.s, p.allowed)
	o, sp := p.s.users[pair[0]], p.s.users[pair[1]]
	p.s.call(sp, nil, "transferFrom", o.Addr, p.s.user().Addr, harborTokens(int64(p.s.between(1, 50))*100))
}

func (p *harborPlay) spendUnapproved() {
	if a, b, ok := p.holder(); ok {
		p.s.call(p.s.user(), nil, "transferFrom", a.Addr, p.s.user().Addr, p.s.fraction(b, 3, 10))
	}
}
