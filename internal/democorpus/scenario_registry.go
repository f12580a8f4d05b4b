package democorpus

import (
	"fmt"
)

// registryFee is the NameRegistry's first registration fee.
var registryFee = milliEther(10)

// registryProxyArgs: ERC1967Proxy(implementation, initialize(deployer, fee)).
func registryProxyArgs(c deployContext) []any {
	init, err := c.implementationABI.Pack("initialize", c.deployer.Addr, registryFee)
	if err != nil {
		return nil // the constructor's encoding then fails and says so
	}
	return []any{c.implementation, init}
}

type registryPlay struct {
	s       *session
	fee     int64 // in thousandths of an ether
	holders map[string]account
	names   []string // registered, in order
}

// registryScenario, through the proxy: users register names, transfer and
// release them; the owner raises the fee halfway and withdraws twice.
// Reverts: a second initialize, taken or too-short names, wrong fees, names
// moved or released by others, owner functions from strangers.
func registryScenario(s *session) {
	p := &registryPlay{s: s, fee: 10, holders: map[string]account{}}
	owner := s.deployer
	s.call(s.user(), nil, "initialize", s.user().Addr, milliEther(0)) // already initialized: reverts
	s.maxGap = 500
	steps := []step{
		{30, p.register},
		{3, p.registerTaken},
		{2, func() { s.call(s.user(), milliEther(p.fee), "register", "ab") }},          // too short
		{2, func() { s.call(s.user(), milliEther(p.fee/2), "register", p.newName()) }}, // wrong fee
		{8, p.transfer},
		{4, p.release},
		{2, p.moveNotHeld},
		{1, func() { s.call(s.user(), nil, "setFee", milliEther(1)) }}, // not the owner
	}
	s.mixCount(100, steps...)
	s.call(owner, nil, "withdraw")
	if s.call(owner, nil, "setFee", milliEther(15)) {
		p.fee = 15
	}
	s.mixCount(210, steps...)
	s.call(owner, nil, "withdraw")
}

var registrySyllables = []string{"ka", "lo", "mi", "ra", "te", "zu", "no", "vi", "sa", "pe", "do", "xi"}

// newName draws a name of two to four syllables, sometimes with a number.
func (p *registryPlay) newName() string {
	name := ""
	for range p.s.between(2, 4) {
		name += pickFrom(p.s, registrySyllables)
	}
	if p.s.chance(0.3) {
		name += fmt.Sprint(p.s.between(1, 99))
	}
	return name
}

func (p *registryPlay) register() {
	name, who := p.newName(), p.s.user()
	if _, taken := p.holders[name]; taken {
		return
	}
	if p.s.call(who, milliEther(p.fee), "register", name) {
		p.holders[name] = who
		p.names = append(p.names, name)
	}
}

// held picks a registered name still held.
func (p *registryPlay) held() (string, account, bool) {
	for range 6 {
		if len(p.names) == 0 {
			break
		}
		name := pickFrom(p.s, p.names)
		if who, ok := p.holders[name]; ok {
			return name, who, true
		}
	}
	return "", account{}, false
}

func (p *registryPlay) registerTaken() {
	if name, _, ok := p.held(); ok {
		p.s.call(p.s.user(), milliEther(p.fee), "register", name)
	}
}

func (p *registryPlay) transfer() {
	if name, who, ok := p.held(); ok {
		to := p.s.user()
		if p.s.call(who, nil, "transferName", name, to.Addr) {
			p.holders[name] = to
		}
	}
}

func (p *registryPlay) release() {
	if name, who, ok := p.held(); ok && p.s.call(who, nil, "release", name) {
		delete(p.holders, name)
	}
}

// moveNotHeld tries to move someone else's name: reverts.
func (p *registryPlay) moveNotHeld() {
	if name, who, ok := p.held(); ok {
		if other := p.s.user(); other.Addr != who.Addr {
			p.s.call(other, nil, "transferName", name, other.Addr)
		}
	}
}
