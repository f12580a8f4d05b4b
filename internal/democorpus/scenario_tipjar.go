package democorpus

type tipJarPlay struct {
	s        *session
	creators []account
}

// tipJarScenario: the owner raises the fee to 3%; a dozen creators register
// (registering twice reverts); fans tip them; creators withdraw; the owner
// collects the fees twice and later lowers the fee. Reverts: tips to
// accounts that are not creators or below the minimum, withdrawals with
// nothing owed, owner functions from strangers, a fee above the cap.
// Never called: renounceOwnership, transferOwnership.
func tipJarScenario(s *session) {
	p := &tipJarPlay{s: s}
	owner := s.deployer
	s.maxGap = 40
	s.call(owner, nil, "setFee", uint16(300))
	for _, c := range s.users[:12] {
		if s.call(c, nil, "register") {
			p.creators = append(p.creators, c)
		}
	}
	s.call(s.pick(p.creators), nil, "register") // already registered: reverts
	s.maxGap = 600
	steps := []step{
		{30, p.tip},
		{2, func() { s.call(s.user(), s.amountEther(5, 200), "tip", s.pick(s.users[12:]).Addr) }}, // not a creator
		{2, func() { s.call(s.user(), milliEther(0), "tip", s.pick(p.creators).Addr) }},           // too small
		{8, p.withdraw},
		{1, func() { s.call(s.user(), nil, "setFee", uint16(100)) }}, // not the owner
	}
	s.mixCount(110, steps...)
	s.call(owner, nil, "collectFees")
	s.call(owner, nil, "setFee", uint16(2000)) // above the cap: reverts
	s.mixCount(180, steps...)
	s.call(owner, nil, "setFee", uint16(200))
	s.mixCount(210, steps...)
	s.call(owner, nil, "collectFees")
}

func (p *tipJarPlay) tip() {
	p.s.call(p.s.user(), p.s.amountEther(1, 400), "tip", p.s.pick(p.creators).Addr)
}

// withdraw: a creator takes what it is owed (reverts when nothing is).
func (p *tipJarPlay) withdraw() { p.s.call(p.s.pick(p.creators), nil, "withdraw") }
