package democorpus

// nftTerms are AllowlistNFT's MAX_SUPPLY, MAX_PER_WALLET and prices; the
// first 30 users are allowlisted.
var nftTerms = saleTerms{allowlisted: 30, maxSupply: 250, perWallet: 5,
	allowlistPrice: milliEther(30), publicPrice: milliEther(50)}

// nftPlay mirrors the sale, token ownership and approvals.
type nftPlay struct {
	saleBook
	publicOpen bool
}

// nftScenario: the owner allowlists 30 addresses in two batches; three days
// of allowlist minting (outsiders and early public mints revert); the owner
// opens the public mint, which sells out (later mints revert); holders
// approve and transfer tokens; the owner withdraws the proceeds twice.
func nftScenario(s *session) {
	n := &nftPlay{saleBook: newSaleBook(s, nftTerms)}
	owner := s.deployer
	s.maxGap = 30
	n.allowlist(owner, 15, true)
	s.call(s.user(), nil, "setPublicMint", true) // not the owner: reverts

	s.maxGap = 500
	allowlistEnd := s.now() + 3*day
	s.mixUntil(func() bool { return s.now() > allowlistEnd },
		step{40, n.allowlistMint},
		step{3, n.wrongPayment},
		step{5, func() { n.allowlistMintBy(s.pick(n.outsiders())) }}, // not allowlisted: reverts
		step{5, n.publicMint}, // closed: reverts
		step{6, n.transfer},
		step{3, n.approve},
	)
	if s.call(owner, nil, "setPublicMint", true) {
		n.publicOpen = true
	}
	// The holders trade alike while the public sale runs and once it sold
	// out; a mix draws its steps in the order they are listed.
	trading := []step{
		{14, n.transfer},
		{5, n.approve},
		{5, n.transferApproved},
		{2, n.transferNotOwned}, // not the owner: reverts
	}
	s.maxGap = 250
	publicSale := []step{
		{40, n.publicMint},
		{8, n.allowlistMint},
		{3, n.wrongPayment},
	}
	s.mixCount(len(s.txs)+s.between(160, 180), append(publicSale, trading...)...)
	s.call(owner, nil, "withdraw")
	soldOut := append([]step{{6, n.publicMint}}, trading...)
	soldOut = append(soldOut, step{1, func() { s.call(s.user(), nil, "withdraw") }}) // not the owner: reverts
	s.mixCount(len(s.txs)+s.between(60, 75), soldOut...)
	if s.h.Balance(s.address).Sign() > 0 {
		s.call(owner, nil, "withdraw")
	}
}

func (n *nftPlay) allowlistMint() {
	if !n.skipSoldOut(0.15) {
		n.allowlistMintBy(n.minter(n.allowed))
	}
}

// minter picks who mints next: mostly someone the wallet limit still allows.
func (n *nftPlay) minter(from []account) account {
	var open []account
	for _, a := range from {
		if n.mintedBy[a.Addr] < uint64(n.perWallet) {
			open = append(open, a)
		}
	}
	if len(open) == 0 || n.s.chance(0.04) {
		return n.s.pick(from)
	}
	return n.s.pick(open)
}

func (n *nftPlay) allowlistMintBy(a account) {
	q := n.quantity(a, 3, 0.06)
	n.mint(a, "allowlistMint", q, priceOf(n.allowlistPrice, q))
}

// publicMint mints at the public price; once the collection is sold out
// only a few latecomers still try (and revert).
func (n *nftPlay) publicMint() {
	if n.skipSoldOut(0.15) {
		return
	}
	a := n.minter(n.s.users)
	q := n.quantity(a, 4, 0.06)
	n.mint(a, "mint", q, priceOf(n.publicPrice, q))
}

// wrongPayment pays the price of one token less than asked for: reverts.
func (n *nftPlay) wrongPayment() {
	q := uint64(n.s.between(2, 3))
	method, price := "allowlistMint", n.allowlistPrice
	a := n.s.pick(n.allowed)
	if n.publicOpen && n.s.chance(0.5) {
		method, price, a = "mint", n.publicPrice, n.s.user()
	}
	n.mint(a, method, q, priceOf(price, q-1))
}
