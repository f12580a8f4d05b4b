package democorpus

import (
	"math/big"
)

// giftSupply is GiftToken's initial supply: one billion tokens of 5 decimals,
// all held by the owner, who sells from it.
var giftSupply = new(big.Int).Mul(big.NewInt(1_000_000_000), big.NewInt(100_000))

// giftScenario: a sale the owner opens, pauses and reopens; buyers pay
// through buy() and through plain transfers; holders trade tokens with
// transfer, approve and transferFrom; the owner collects the ether.
func giftScenario(s *session) {
	g := &giftPlay{s: s}
	owner := s.deployer
	s.maxGap = 350
	for range s.between(2, 4) { // eager buyers before the sale opens: reverts
		s.send(s.user(), s.amountEther(100, 2000))
	}
	s.call(owner, nil, "enableSale")
	s.mixCount(s.between(150, 170), g.steps(true)...)

	s.call(owner, nil, "disableSale")
	s.call(owner, nil, "withdrawEth")
	s.mixCount(len(s.txs)+s.between(35, 45), g.steps(false)...)

	s.call(owner, nil, "enableSale")
	s.mixCount(len(s.txs)+s.between(110, 130), g.steps(true)...)

	s.call(owner, nil, "disableSale")
	s.call(owner, nil, "withdrawEth")
	s.mixCount(len(s.txs)+s.between(20, 30), g.steps(false)...)
}

// giftPlay remembers the allowances granted, so spenders use real ones.
type giftPlay struct {
	s         *session
	approvals [][2]account // holder, spender
}

// steps is the mix of user actions; while the sale is closed buyers still
// try now and then, and those purchases revert.
func (g *giftPlay) steps(selling bool) []step {
	s := g.s
	buyWeight := 45
	if !selling {
		buyWeight = 4
	}
	return []step{
		{buyWeight, func() { s.call(s.user(), s.amountEther(10, 3000), "buy") }},
		{buyWeight, func() { s.send(s.user(), s.amountEther(10, 3000)) }},
		{2, func() { s.send(s.user(), s.amountEther(1, 9)) }},       // below the minimum: reverts
		{1, func() { s.send(s.deployer, s.amountEther(100, 500)) }}, // the owner cannot buy: reverts
		{1, func() { s.call(s.user(), nil, "withdrawEth") }},        // not the owner: reverts
		{1, func() { s.call(s.user(), nil, "disableSale") }},        // not the owner: reverts
		{2, func() { s.call(s.deployer, nil, "withdrawEth") }},      // the owner collects
		{22, g.transfer},
		{8, g.approve},
		{7, g.transferFrom},
	}
}

// transfer sends part of a holder's balance; now and then more than the
// balance, which GiftToken refuses by returning false, not by reverting.
func (g *giftPlay) transfer() {
	s := g.s
	from, bal := g.holder()
	amount := s.fraction(bal, 9, 10)
	if bal.Sign() == 0 || s.chance(0.06) {
		amount = new(big.Int).Add(bal, big.NewInt(int64(s.between(1, 5_000_000))))
	}
	s.call(from, nil, "transfer", s.user().Addr, amount)
}

// holder picks a user who owns tokens, if a few tries find one.
func (g *giftPlay) holder() (account, *big.Int) {
	var u account
	bal := new(big.Int)
	for range 5 {
		u = g.s.user()
		if bal = g.s.viewUint("balanceOf", u.Addr); bal.Sign() > 0 {
			break
		}
	}
	return u, bal
}

func (g *giftPlay) approve() {
	s := g.s
	holder, spender := s.user(), s.user()
	bal := s.viewUint("balanceOf", holder.Addr)
	allowance := s.fraction(bal, 10, 10)
	if bal.Sign() == 0 {
		allowance = big.NewInt(int64(s.between(1, 1000)) * 100_000)
	}
	if s.call(holder, nil, "approve", spender.Addr, allowance) {
		g.approvals = append(g.approvals, [2]account{holder, spender})
	}
}

// transferFrom spends a granted allowance, up to what the holder still has;
// sometimes more, which is refused without a revert.
func (g *giftPlay) transferFrom() {
	s := g.s
	if len(g.approvals) == 0 {
		return
	}
	pair := pickFrom(s, g.approvals)
	holder, spender := pair[0], pair[1]
	allowed := s.viewUint("allowance", holder.Addr, spender.Addr)
	bal := s.viewUint("balanceOf", holder.Addr)
	amount := s.fraction(minBig(allowed, bal), 10, 10)
	if amount.Sign() == 0 || s.chance(0.05) {
		amount = new(big.Int).Add(allowed, big.NewInt(100_000))
	}
	s.call(spender, nil, "transferFrom", holder.Addr, s.user().Addr, amount)
}

func minBig(a, b *big.Int) *big.Int {
	if a.Cmp(b) < 0 {
		return a
	}
	return b
}
