package democorpus

import (
	"math/big"
)

// The sale's terms: 5,000 tokens an ether, opening two days after deployment
// (on the hour) for two weeks, a 250 ether cap and a 100 ether goal.
const (
	crowdsaleRate      = 5000
	crowdsaleDelay     = 2 * day
	crowdsaleDuration  = 14 * day
	crowdsaleCapEther  = 250
	crowdsaleGoalEther = 100
)

func crowdsaleWindow(deployTime uint64) (open, close uint64) {
	open = (deployTime+crowdsaleDelay)/hour*hour + hour
	return open, open + crowdsaleDuration
}

// crowdsaleArgs: the first user is the team's wallet.
func crowdsaleArgs(c deployContext) []any {
	open, close := crowdsaleWindow(c.time)
	return []any{c.users[0].Addr, big.NewInt(crowdsaleRate), new(big.Int).SetUint64(open), new(big.Int).SetUint64(close),
		milliEther(crowdsaleCapEther * 1000), milliEther(crowdsaleGoalEther * 1000)}
}

// crowdsalePlay remembers who bought, to claim later.
type crowdsalePlay struct {
	s       *session
	buyers  []account
	owed    map[account]bool // bought and not yet claimed
	holders []account
}

// crowdsaleScenario: eager buyers before the opening (reverted), two weeks
// of purchases until the cap nearly fills (the last ones revert on the cap),
// late buyers after the close (reverted), the owner finalizing, and buyers
// claiming and moving their tokens. The goal is reached, so every refund
// claim reverts.
func crowdsaleScenario(s *session) {
	c := &crowdsalePlay{s: s, buyers: s.users[1:], owed: map[account]bool{}}
	open, close := crowdsaleWindow(s.now())
	owner := s.deployer

	s.maxGap = 1500
	for range s.between(6, 9) {
		c.buy(s.pick(c.buyers))
	}
	s.waitUntil(open)

	s.maxGap = 900
	s.mixUntil(func() bool { return s.now()+4*hour > close },
		step{45, func() { c.buy(s.pick(c.buyers)) }},
		step{30, func() { c.sendEther(s.pick(c.buyers)) }},
		step{6, c.buyFor},
		step{4, func() {
			s.call(s.pick(c.buyers), milliEther(int64(s.between(5, 40))), "buyTokens", s.pick(c.buyers).Addr)
		}}, // too small: reverts
		step{3, func() { s.call(s.pick(c.buyers), nil, "claimTokens") }}, // not finalized: reverts
		step{1, func() { s.call(owner, nil, "finalize") }},               // not closed: reverts
	)
	s.waitUntil(close + 6*hour)

	s.maxGap = 60
	for range s.between(3, 5) {
		c.buy(s.pick(c.buyers))
	}
	s.call(owner, nil, "finalize")
	s.maxGap = 300
	s.mixCount(len(s.txs)+s.between(85, 100),
		step{40, c.claim},
		step{14, c.transfer},
		step{2, func() { s.call(s.pick(c.buyers), nil, "claimRefund") }}, // goal reached: reverts
		step{2, c.claimAgain},                              // nothing left: reverts
		step{1, func() { s.call(owner, nil, "finalize") }}, // already finalized: reverts
	)
}

func (c *crowdsalePlay) buy(from account) {
	if c.s.call(from, c.s.amountEther(50, 4000), "buyTokens", from.Addr) {
		c.owed[from] = true
	}
}

func (c *crowdsalePlay) sendEther(from account) {
	if c.s.send(from, c.s.amountEther(50, 4000)) {
		c.owed[from] = true
	}
}

// buyFor buys on behalf of someone else.
func (c *crowdsalePlay) buyFor() {
	from, to := c.s.pick(c.buyers), c.s.pick(c.buyers)
	if c.s.call(from, c.s.amountEther(100, 3000), "buyTokens", to.Addr) {
		c.owed[to] = true
	}
}

func (c *crowdsalePlay) claim() {
	b, ok := pickWhere(c.s, c.buyers, func(b account) bool { return c.owed[b] })
	if !ok {
		c.transfer()
		return
	}
	if c.s.call(b, nil, "claimTokens") {
		delete(c.owed, b)
		c.holders = append(c.holders, b)
	}
}

func (c *crowdsalePlay) claimAgain() {
	if len(c.holders) > 0 {
		c.s.call(c.s.pick(c.holders), nil, "claimTokens")
	}
}

func (c *crowdsalePlay) transfer() {
	if len(c.holders) == 0 {
		return
	}
	s := c.s
	from := s.pick(c.holders)
	bal := s.viewUint("balanceOf", from.Addr)
	to := s.pick(c.buyers)
	if s.call(from, nil, "transfer", to.Addr, s.fraction(bal, 10, 10)) {
		c.holders = append(c.holders, to)
	}
}
