package democorpus

import (
	"math/big"

	"github.com/ethereum/go-ethereum/common"
)

// tokenBook mirrors an ERC-721's tokens as its holders see them: who holds
// each (ids from 1, minted in order) and who is approved for it.
type tokenBook struct {
	s        *session
	owners   map[uint64]account
	approved map[uint64]account
	minted   uint64
}

func newTokenBook(s *session) tokenBook {
	return tokenBook{s: s, owners: map[uint64]account{}, approved: map[uint64]account{}}
}

// add records q tokens minted to a.
func (b *tokenBook) add(a account, q uint64) {
	for range q {
		b.minted++
		b.owners[b.minted] = a
	}
}

// token picks a minted token and its holder; false when none is minted.
func (b *tokenBook) token() (uint64, account, bool) {
	if b.minted == 0 {
		return 0, account{}, false
	}
	id := 1 + uint64(b.s.rng.IntN(int(b.minted)))
	return id, b.owners[id], true
}

func (b *tokenBook) transfer() {
	if id, from, ok := b.token(); ok {
		b.move(from, from, b.s.user(), id)
	}
}

func (b *tokenBook) approve() {
	if id, from, ok := b.token(); ok {
		to := b.s.user()
		if to.Addr != from.Addr && b.s.call(from, nil, "approve", to.Addr, new(big.Int).SetUint64(id)) {
			b.approved[id] = to
		}
	}
}

// transferApproved lets an approved operator move the token to itself.
func (b *tokenBook) transferApproved() {
	for id := uint64(1); id <= b.minted; id++ {
		if op, ok := b.approved[id]; ok && b.s.chance(0.3) {
			b.move(op, b.owners[id], op, id)
			return
		}
	}
}

// transferNotOwned has someone else move a token: reverts unless that
// account happens to be an operator.
func (b *tokenBook) transferNotOwned() {
	if id, owner, ok := b.token(); ok {
		if other := b.s.user(); other.Addr != owner.Addr {
			b.move(other, owner, b.s.user(), id)
		}
	}
}

func (b *tokenBook) move(caller, from, to account, id uint64) {
	if b.s.call(caller, nil, "transferFrom", from.Addr, to.Addr, new(big.Int).SetUint64(id)) {
		b.moved(id, to)
	}
}

func (b *tokenBook) moved(id uint64, to account) {
	b.owners[id] = to
	delete(b.approved, id)
}

// saleTerms are an ERC-721 sale's constants, as its contract fixes them, and
// how many of the users (the first ones) the owner allowlists.
type saleTerms struct {
	allowlisted, maxSupply, perWallet int
	allowlistPrice, publicPrice       *big.Int
}

// saleBook mirrors an ERC-721 sale with an allowlist and a per-wallet limit:
// the tokens, who is allowlisted and how many each account has minted.
type saleBook struct {
	tokenBook
	saleTerms
	allowed  []account
	mintedBy map[common.Address]uint64
}

func newSaleBook(s *session, terms saleTerms) saleBook {
	return saleBook{tokenBook: newTokenBook(s), saleTerms: terms, allowed: s.users[:terms.allowlisted],
		mintedBy: map[common.Address]uint64{}}
}

// outsiders are the users not allowlisted.
func (b *saleBook) outsiders() []account { return b.s.users[b.allowlisted:] }

// allowlist has the owner allowlist the first `first` allowed accounts, then
// the rest: setAllowlist(addresses, args...).
func (b *saleBook) allowlist(owner account, first int, args ...any) {
	for _, batch := range [][]account{b.allowed[:first], b.allowed[first:]} {
		b.s.call(owner, nil, "setAllowlist", append([]any{addressesOf(batch)}, args...)...)
	}
}

// skipSoldOut says whether a mint is skipped: once the collection is sold
// out only a stillTry share of would-be minters tries (and reverts).
func (b *saleBook) skipSoldOut(stillTry float64) bool {
	return b.minted >= uint64(b.maxSupply) && !b.s.chance(stillTry)
}

// quantity is how many tokens a minter asks for: 1 to most, within what the
// wallet limit still allows but for a pastLimit share of asks (they revert).
func (b *saleBook) quantity(a account, most int, pastLimit float64) uint64 {
	if left := b.perWallet - int(b.mintedBy[a.Addr]); left > 0 && !b.s.chance(pastLimit) {
		most = min(most, left)
	}
	return uint64(b.s.between(1, most))
}

// mint has a ask for q tokens through method, paying value.
func (b *saleBook) mint(a account, method string, q uint64, value *big.Int) {
	if b.s.call(a, value, method, new(big.Int).SetUint64(q)) {
		b.mintedBy[a.Addr] += q
		b.add(a, q)
	}
}

// priceOf is what q tokens cost at each.
func priceOf(each *big.Int, q uint64) *big.Int {
	return new(big.Int).Mul(each, new(big.Int).SetUint64(q))
}
