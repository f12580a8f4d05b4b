package democorpus

import (
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

const channelMerchants = 6

// channelPlay mirrors the open channels.
type channelPlay struct {
	s         *session
	merchants []account
	payers    []account
	channels  []*channel
}

type channel struct {
	id                *big.Int
	sender, recipient account
	deposit           *big.Int
	expiry            uint64
	closed            bool
}

// channelScenario: three weeks of customers opening channels to six
// merchants, topping them up and extending them; merchants closing with the
// customer's signed voucher (a few with a voucher for the wrong amount,
// which reverts); customers reclaiming expired channels (some too early,
// which reverts).
func channelScenario(s *session) {
	c := &channelPlay{s: s, merchants: s.users[:channelMerchants], payers: s.users[channelMerchants:]}
	s.maxGap = 700
	s.mixCount(s.between(330, 370),
		step{26, c.open},
		step{2, c.openTooShort},
		step{6, c.topUp},
		step{1, c.topUpByStranger},
		step{4, c.extend},
		step{24, c.close},
		step{3, c.closeBadVoucher},
		step{1, c.closeOverDeposit},
		step{9, c.claimTimeout},
		step{1, c.claimEarly},
	)
}

func (c *channelPlay) open() {
	s := c.s
	from, to := s.pick(c.payers), s.pick(c.merchants)
	deposit := s.amountEther(50, 3000)
	expiry := s.now() + uint64(s.between(6*hour, 6*day))
	id := s.viewUint("channelCount")
	if s.call(from, deposit, "open", to.Addr, new(big.Int).SetUint64(expiry)) {
		c.channels = append(c.channels, &channel{id: id, sender: from, recipient: to, deposit: deposit, expiry: expiry})
	}
}

// openTooShort asks for an expiry within the one-hour minimum: reverts.
func (c *channelPlay) openTooShort() {
	s := c.s
	expiry := s.now() + uint64(s.between(60, 1800))
	s.call(s.pick(c.payers), s.amountEther(50, 500), "open", s.pick(c.merchants).Addr, new(big.Int).SetUint64(expiry))
}

// openChannel picks an open channel that has (or has not) expired, with a
// margin either way because the next block may come hours later.
func (c *channelPlay) openChannel(expired bool) *channel {
	ch, _ := pickWhere(c.s, c.channels, func(ch *channel) bool {
		return !ch.closed && (expired && ch.expiry < c.s.now() || !expired && ch.expiry > c.s.now()+4*hour)
	})
	return ch
}

func (c *channelPlay) topUp() {
	if ch := c.openChannel(false); ch != nil {
		v := c.s.amountEther(50, 1000)
		if c.s.call(ch.sender, v, "topUp", ch.id) {
			ch.deposit = new(big.Int).Add(ch.deposit, v)
		}
	}
}

func (c *channelPlay) topUpByStranger() {
	if ch := c.openChannel(false); ch != nil {
		c.s.call(ch.recipient, c.s.amountEther(50, 500), "topUp", ch.id)
	}
}

func (c *channelPlay) extend() {
	if ch := c.openChannel(false); ch != nil {
		expiry := ch.expiry + uint64(c.s.between(1, 5))*day
		if c.s.call(ch.sender, nil, "extend", ch.id, new(big.Int).SetUint64(expiry)) {
			ch.expiry = expiry
		}
	}
}

// close settles a channel with a voucher for part of its deposit.
func (c *channelPlay) close() {
	if ch := c.openChannel(false); ch != nil {
		amount := c.s.fraction(ch.deposit, 20, 20)
		c.closeWith(ch, amount, amount)
	}
}

// closeBadVoucher claims more than the customer signed for: reverts.
func (c *channelPlay) closeBadVoucher() {
	if ch := c.openChannel(false); ch != nil {
		signed := c.s.fraction(ch.deposit, 10, 20)
		c.closeWith(ch, signed, new(big.Int).Add(signed, c.s.fraction(new(big.Int).Sub(ch.deposit, signed), 10, 10)))
	}
}

// closeOverDeposit presents a genuine voucher above the deposit: reverts.
func (c *channelPlay) closeOverDeposit() {
	if ch := c.openChannel(false); ch != nil {
		amount := new(big.Int).Add(ch.deposit, c.s.amountEther(10, 500))
		c.closeWith(ch, amount, amount)
	}
}

// closeWith has the recipient close ch claiming `claimed` with the sender's
// voucher for `signed` (signing draws nothing from the scenario's RNG).
func (c *channelPlay) closeWith(ch *channel, signed, claimed *big.Int) {
	sig, err := voucher(ch.sender, c.s.address, ch.id, signed)
	if err != nil {
		c.s.fail(err)
		return
	}
	if c.s.call(ch.recipient, nil, "close", ch.id, claimed, sig) {
		ch.closed = true
	}
}

func (c *channelPlay) claimTimeout() { c.claimTimeoutOf(c.openChannel(true)) }

// claimEarly claims a channel before its expiry: reverts.
func (c *channelPlay) claimEarly() { c.claimTimeoutOf(c.openChannel(false)) }

func (c *channelPlay) claimTimeoutOf(ch *channel) {
	if ch != nil && c.s.call(ch.sender, nil, "claimTimeout", ch.id) {
		ch.closed = true
	}
}

// voucher is the sender's signature over PaymentChannel.paymentHash: the
// eth_sign digest of keccak256(contract, channelId, amount), v in {27, 28}.
func voucher(sender account, contract common.Address, id, amount *big.Int) ([]byte, error) {
	message := crypto.Keccak256(contract.Bytes(), common.BigToHash(id).Bytes(), common.BigToHash(amount).Bytes())
	digest := crypto.Keccak256([]byte(fmt.Sprintf("\x19Ethereum Signed Message:\n%d", len(message))), message)
	sig, err := crypto.Sign(digest, sender.Key)
	if err != nil {
		return nil, fmt.Errorf("sign voucher: %w", err)
	}
	sig[64] += 27
	return sig, nil
}
