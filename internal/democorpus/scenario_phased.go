package democorpus

import (
	"math/big"
)

// phasedTerms are PhasedMintNFT's MAX_SUPPLY, MAX_PER_WALLET and prices;
// the first 24 users are allowlisted.
var phasedTerms = saleTerms{allowlisted: 24, maxSupply: 120, perWallet: 4,
	allowlistPrice: milliEther(20), publicPrice: milliEther(40)}

// phasedPlay mirrors the sale and who holds which token.
type phasedPlay struct {
	saleBook
	phase uint8
}

// phasedMintScenario: the owner allowlists 24 addresses in two batches;
// mints while the sale is closed revert; a day and a half of allowlist
// minting (outsiders revert), then the public phase sells out; holders
// approve, set operators and transfer (plain and safe); the owner withdraws
// twice. Reverts: closed or sold-out mints, wrong payments, wallet limits,
// transfers by non-owners, owner functions from strangers.
func phasedMintScenario(s *session) {
	p := &phasedPlay{saleBook: newSaleBook(s, phasedTerms)}
	owner := s.deployer
	s.maxGap = 40
	p.allowlist(owner, 14)
	s.call(s.user(), nil, "setPhase", uint8(2))     // not the owner: reverts
	s.mixCount(len(s.txs)+4, step{1, p.publicMint}) // closed: reverts
	p.setPhase(1)

	s.maxGap = 300
	end := s.now() + 36*hour
	s.mixUntil(func() bool { return s.now() > end },
		step{30, p.allowlistMint},
		step{4, func() { p.mintBy(s.pick(p.outsiders()), 1, p.allowlistPrice) }}, // not allowlisted
		step{2, p.wrongPayment},
		step{5, p.transfer},
	)
	p.setPhase(2)
	s.maxGap = 700
	steps := []step{
		{24, p.publicMint},
		{12, p.transfer},
		{5, p.safeTransfer},
		{4, p.approve},
		{4, p.transferApproved},
		{2, p.setOperator},
		{1, p.wrongPayment},
		{2, p.transferNotOwned},
	}
	s.mixCount(150, steps...)
	s.call(owner, nil, "withdraw")
	s.call(s.user(), nil, "withdraw") // not the owner: reverts
	s.mixCount(211, steps...)
	s.call(owner, nil, "withdraw")
}

func (p *phasedPlay) setPhase(phase uint8) {
	if p.s.call(p.s.deployer, nil, "setPhase", phase) {
		p.phase = phase
	}
}

func (p *phasedPlay) allowlistMint() { p.mintBy(p.minter(p.allowed), 0, p.allowlistPrice) }

func (p *phasedPlay) publicMint() {
	if !p.skipSoldOut(0.2) {
		p.mintBy(p.minter(p.s.users), 0, p.publicPrice)
	}
}

// minter picks who mints next, mostly someone the wallet limit allows.
func (p *phasedPlay) minter(from []account) account {
	for range 8 {
		if a := p.s.pick(from); p.mintedBy[a.Addr] < uint64(p.perWallet) {
			return a
		}
	}
	return p.s.pick(from)
}

// mintBy mints q tokens (when q is 0: 1-3, mostly within the wallet
// limit, now and then past it) at price each.
func (p *phasedPlay) mintBy(a account, q uint64, price *big.Int) {
	if q == 0 {
		q = p.quantity(a, 3, 0.08)
	}
	p.mint(a, "mint", q, priceOf(price, q))
}

// wrongPayment pays for one token less than it asks for: reverts.
func (p *phasedPlay) wrongPayment() {
	price := p.allowlistPrice
	if p.phase == 2 {
		price = p.publicPrice
	}
	q := uint64(p.s.between(2, 3))
	p.mint(p.s.pick(p.allowed), "mint", q, priceOf(price, q-1))
}

// safeTransfer uses both safeTransferFrom overloads (to accounts, which
// need no receiver hook).
func (p *phasedPlay) safeTransfer() {
	id, from, ok := p.token()
	if !ok {
		return
	}
	to := p.s.user()
	var done bool
	if p.s.chance(0.5) {
		done = p.s.call(from, nil, "safeTransferFrom", from.Addr, to.Addr, new(big.Int).SetUint64(id))
	} else {
		done = p.s.call(from, nil, "safeTransferFrom0", from.Addr, to.Addr, new(big.Int).SetUint64(id), []byte("gift"))
	}
	if done {
		p.moved(id, to)
	}
}

// setOperator lets another account manage all of a holder's tokens.
func (p *phasedPlay) setOperator() {
	if _, holder, ok := p.token(); ok {
		p.s.call(holder, nil, "setApprovalForAll", p.s.user().Addr, p.s.chance(0.8))
	}
}
