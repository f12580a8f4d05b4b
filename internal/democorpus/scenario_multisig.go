package democorpus

import (
	"math/big"

	"github.com/ethereum/go-ethereum/common"
)

const (
	multisigOwners   = 5
	multisigRequired = 3
)

// multisigArgs: the deployer and four users own the wallet; three must confirm.
func multisigArgs(c deployContext) []any {
	owners := append([]common.Address{c.deployer.Addr}, addressesOf(c.users[:multisigOwners-1])...)
	return []any{owners, big.NewInt(multisigRequired)}
}

// multisigPlay tracks the wallet's proposals as the owners see them.
type multisigPlay struct {
	s        *session
	owners   []account
	outsider []account
	payees   []account
	pending  []*proposal
	done     []*proposal
}

type proposal struct {
	id        *big.Int
	confirmed map[common.Address]bool
}

// multisigScenario: a team treasury. Anyone deposits; owners propose payments,
// the others confirm until the third confirmation pays out; some proposals
// are revoked, some fail for lack of funds and are executed after the next
// deposits. Owner management (through the wallet itself) never happens.
func multisigScenario(s *session) {
	m := &multisigPlay{s: s, owners: append([]account{s.deployer}, s.users[:multisigOwners-1]...),
		outsider: s.users[multisigOwners-1:]}
	m.payees = m.outsider[:8]
	s.maxGap = 900
	for range s.between(3, 5) { // funding
		s.send(s.pick(m.owners), s.amountEther(5000, 40000))
	}
	s.mixCount(s.between(330, 370),
		step{22, m.deposit},
		step{14, m.submit},
		step{40, m.confirm},
		step{4, m.revoke},
		step{5, m.execute},
		step{2, func() { m.confirmBy(s.pick(m.outsider)) }}, // not an owner: reverts
		step{2, m.confirmAgain},                             // already confirmed: reverts
		step{1, m.executeDone},                              // already executed: reverts
		step{1, m.submitByOutsider},                         // not an owner: reverts
	)
}

func (m *multisigPlay) deposit() {
	s := m.s
	from := s.pick(m.outsider)
	if s.chance(0.4) {
		from = s.pick(m.owners)
	}
	s.send(from, s.amountEther(100, 12000))
}

// submit proposes a payment; one in six asks for more than the wallet holds.
func (m *multisigPlay) submit() {
	s := m.s
	value := s.amountEther(50, 6000)
	if s.chance(0.16) {
		value = new(big.Int).Add(s.h.Balance(s.address), s.amountEther(1000, 20000))
	}
	owner := s.pick(m.owners)
	id := s.viewUint("transactionCount")
	if s.call(owner, nil, "submitTransaction", s.pick(m.payees).Addr, value, []byte{}) {
		m.pending = append(m.pending, &proposal{id: id, confirmed: map[common.Address]bool{owner.Addr: true}})
	}
}

// confirm adds an owner's confirmation to an open proposal.
func (m *multisigPlay) confirm() {
	p := m.openProposal()
	if p == nil {
		return
	}
	o, ok := pickWhere(m.s, m.owners, func(o account) bool { return !p.confirmed[o.Addr] })
	if ok && m.s.call(o, nil, "confirmTransaction", p.id) {
		p.confirmed[o.Addr] = true
		m.settle()
	}
}

func (m *multisigPlay) confirmBy(a account) {
	if p := m.openProposal(); p != nil {
		m.s.call(a, nil, "confirmTransaction", p.id)
	}
}

func (m *multisigPlay) confirmAgain() {
	if p := m.openProposal(); p != nil {
		m.callAsConfirmer(p, "confirmTransaction")
	}
}

// revoke withdraws a confirmation from a proposal that has not run.
func (m *multisigPlay) revoke() {
	p := m.openProposal()
	if p == nil {
		return
	}
	for _, o := range m.owners {
		if p.confirmed[o.Addr] && m.s.chance(0.5) {
			if m.s.call(o, nil, "revokeConfirmation", p.id) {
				delete(p.confirmed, o.Addr)
			}
			return
		}
	}
}

// execute retries a fully confirmed proposal whose payment failed earlier.
func (m *multisigPlay) execute() {
	for _, p := range m.pending {
		if len(p.confirmed) >= multisigRequired && m.callAsConfirmer(p, "executeTransaction") {
			m.settle()
			return
		}
	}
}

func (m *multisigPlay) executeDone() {
	if len(m.done) > 0 {
		m.callAsConfirmer(pickFrom(m.s, m.done), "executeTransaction")
	}
}

// callAsConfirmer calls method(p.id) from the first owner who confirmed p;
// false when no owner has (nothing is sent then).
func (m *multisigPlay) callAsConfirmer(p *proposal, method string) bool {
	for _, o := range m.owners {
		if p.confirmed[o.Addr] {
			m.s.call(o, nil, method, p.id)
			return true
		}
	}
	return false
}

func (m *multisigPlay) submitByOutsider() {
	s := m.s
	s.call(s.pick(m.outsider), nil, "submitTransaction", s.pick(m.payees).Addr, s.amountEther(100, 900), []byte{})
}

// openProposal picks a pending proposal, the older ones more often.
func (m *multisigPlay) openProposal() *proposal {
	if len(m.pending) == 0 {
		return nil
	}
	i := m.s.rng.IntN(len(m.pending))
	i = min(i, m.s.rng.IntN(len(m.pending)))
	return m.pending[i]
}

// settle moves the proposals the wallet has executed out of pending.
func (m *multisigPlay) settle() {
	open := m.pending[:0]
	for _, p := range m.pending {
		out := m.s.view("transactions", p.id)
		if len(out) == 4 && out[3] == true {
			m.done = append(m.done, p)
			continue
		}
		open = append(open, p)
	}
	m.pending = open
}
