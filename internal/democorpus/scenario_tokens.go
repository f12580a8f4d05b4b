package democorpus

import "math/big"

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
