package democorpus

import (
	"math/big"

	"github.com/ethereum/go-ethereum/common"
)

const (
	nftAllowlisted = 30
	nftMaxSupply   = 250 // AllowlistNFT.MAX_SUPPLY
)

var (
	nftPrice          = milliEther(50)
	nftAllowlistPrice = milliEther(30)
)

// nftPlay mirrors token ownership and approvals.
type nftPlay struct {
	tokenBook
	s          *session
	allowed    []account
	mintedBy   map[common.Address]uint64
	publicOpen bool
}

// nftScenario: the owner allowlists 30 addresses in two batches; three days
// of allowlist minting (outsiders and early public mints revert); the owner
// opens the public mint, which sells out (later mints revert); holders
// approve and transfer tokens; the owner withdraws the proceeds twice.
func nftScenario(s *session) {
	n := &nftPlay{tokenBook: newTokenBook(s), s: s, allowed: s.users[:nftAllowlisted], mintedBy: map[common.Address]uint64{}}
	owner := s.deployer
	s.maxGap = 30
	for _, batch := range [][]account{n.allowed[:15], n.allowed[15:]} {
		addrs := make([]common.Address, len(batch))
		for i, a := range batch {
			addrs[i] = a.Addr
		}
		s.call(owner, nil, "setAllowlist", addrs, true)
	}
	s.call(s.user(), nil, "setPublicMint", true) // not the owner: reverts

	s.maxGap = 500
	allowlistEnd := s.now() + 3*day
	s.mixUntil(func() bool { return s.now() > allowlistEnd },
		step{40, n.allowlistMint},
		step{3, n.wrongPayment},
		step{5, func() { n.allowlistMintBy(s.pick(s.users[nftAllowlisted:])) }}, // not allowlisted: reverts
		step{5, n.publicMint}, // closed: reverts
		step{6, n.transfer},
		step{3, n.approve},
	)
	if s.call(owner, nil, "setPublicMint", true) {
		n.publicOpen = true
	}
	s.maxGap = 250
	s.mixCount(len(s.txs)+s.between(160, 180),
		step{40, n.publicMint},
		step{8, n.allowlistMint},
		step{3, n.wrongPayment},
		step{14, n.transfer},
		step{5, n.approve},
		step{5, n.transferApproved},
		step{2, n.transferNotOwned}, // not the owner: reverts
	)
	s.call(owner, nil, "withdraw")
	s.mixCount(len(s.txs)+s.between(60, 75),
		step{6, n.publicMint},
		step{14, n.transfer},
		step{5, n.approve},
		step{5, n.transferApproved},
		step{2, n.transferNotOwned},
		step{1, func() { s.call(s.user(), nil, "withdraw") }}, // not the owner: reverts
	)
	if s.h.Balance(s.address).Sign() > 0 {
		s.call(owner, nil, "withdraw")
	}
}

func (n *nftPlay) allowlistMint() {
	if n.minted >= nftMaxSupply && !n.s.chance(0.15) {
		return
	}
	n.allowlistMintBy(n.minter(n.allowed))
}

// minter picks who mints next: mostly someone the wallet limit still allows.
func (n *nftPlay) minter(from []account) account {
	var open []account
	for _, a := range from {
		if n.mintedBy[a.Addr] < 5 {
			open = append(open, a)
		}
	}
	if len(open) == 0 || n.s.chance(0.04) {
		return n.s.pick(from)
	}
	return n.s.pick(open)
}

func (n *nftPlay) allowlistMintBy(a account) {
	q := n.quantity(a, 3)
	n.mint(a, "allowlistMint", q, new(big.Int).Mul(nftAllowlistPrice, new(big.Int).SetUint64(q)))
}

// publicMint mints at the public price; once the collection is sold out
// only a few latecomers still try (and revert).
func (n *nftPlay) publicMint() {
	if n.minted >= nftMaxSupply && !n.s.chance(0.15) {
		return
	}
	a := n.minter(n.s.users)
	q := n.quantity(a, 4)
	n.mint(a, "mint", q, new(big.Int).Mul(nftPrice, new(big.Int).SetUint64(q)))
}

// quantity is how many tokens a minter asks for: up to max, mostly within
// what the wallet limit still allows; now and then beyond it (reverts).
func (n *nftPlay) quantity(a account, max int) uint64 {
	left := 5 - int(n.mintedBy[a.Addr])
	if left > 0 && !n.s.chance(0.06) {
		max = min(max, left)
	}
	return uint64(n.s.between(1, max))
}

// wrongPayment pays the price of one token less than asked for: reverts.
func (n *nftPlay) wrongPayment() {
	q := uint64(n.s.between(2, 3))
	method, price := "allowlistMint", nftAllowlistPrice
	a := n.s.pick(n.allowed)
	if n.publicOpen && n.s.chance(0.5) {
		method, price, a = "mint", nftPrice, n.s.user()
	}
	n.mint(a, method, q, new(big.Int).Mul(price, new(big.Int).SetUint64(q-1)))
}

func (n *nftPlay) mint(a account, method string, q uint64, value *big.Int) {
	if n.s.call(a, value, method, new(big.Int).SetUint64(q)) {
		n.mintedBy[a.Addr] += q
		n.add(a, q)
	}
}
