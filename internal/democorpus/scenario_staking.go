package democorpus

import (
	"math/big"
)

// stakingInitialRate is the pool's starting reward: 0.1 point a second.
var stakingInitialRate = milliEther(100)

// stakingPlay tracks who holds claimed reward points.
type stakingPlay struct {
	s       *session
	earners []account
}

// stakingScenario: about three weeks of staking, partial withdrawals,
// reward claims, exits and reward-point transfers; the owner changes the
// reward rate twice. Pausing and the minimum stake are never touched.
func stakingScenario(s *session) {
	p := &stakingPlay{s: s}
	s.maxGap = 900
	total := s.between(330, 370)
	steps := []step{
		{30, p.stake},
		{2, func() { s.call(s.user(), milliEther(int64(s.between(1, 9))), "stake") }}, // below the minimum: reverts
		{13, p.withdraw},
		{3, p.overdraw},
		{16, p.claim},
		{2, p.claimNothing},
		{5, p.exit},
		{8, p.transferReward},
	}
	s.mixCount(total/3, steps...)
	s.call(s.deployer, nil, "setRewardRate", milliEther(150))
	s.mixCount(2*total/3, steps...)
	s.call(s.deployer, nil, "setRewardRate", milliEther(50))
	s.mixCount(total, steps...)
}

// staker picks a user with a stake, or nobody.
func (p *stakingPlay) staker() (account, *big.Int, bool) { return p.s.userHolding("stakedBalance") }

func (p *stakingPlay) stake() { p.s.call(p.s.user(), p.s.amountEther(20, 20000), "stake") }

func (p *stakingPlay) withdraw() {
	if u, st, ok := p.staker(); ok {
		p.s.call(u, nil, "withdraw", p.s.fraction(st, 10, 10))
	}
}

// overdraw asks for more than the stake: reverts.
func (p *stakingPlay) overdraw() {
	if u, st, ok := p.staker(); ok {
		p.s.call(u, nil, "withdraw", new(big.Int).Add(st, p.s.amountEther(10, 5000)))
	}
}

func (p *stakingPlay) claim() {
	if u, _, ok := p.staker(); ok && p.s.call(u, nil, "claimReward") {
		p.earners = append(p.earners, u)
	}
}

// claimNothing claims for a user with no stake and nothing accrued: reverts
// (or pays what a former staker left unclaimed).
func (p *stakingPlay) claimNothing() {
	u := p.s.user()
	if p.s.viewUint("stakedBalance", u.Addr).Sign() == 0 && p.s.call(u, nil, "claimReward") {
		p.earners = append(p.earners, u)
	}
}

func (p *stakingPlay) exit() {
	if u, _, ok := p.staker(); ok && p.s.call(u, nil, "exit") {
		p.earners = append(p.earners, u)
	}
}

func (p *stakingPlay) transferReward() {
	if len(p.earners) == 0 {
		return
	}
	s := p.s
	from, to := s.pick(p.earners), s.user()
	bal := s.viewUint("rewardBalance", from.Addr)
	if bal.Sign() == 0 {
		return
	}
	if s.call(from, nil, "transferReward", to.Addr, s.fraction(bal, 10, 10)) {
		p.earners = append(p.earners, to)
	}
}
