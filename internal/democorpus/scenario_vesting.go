package democorpus

import (
	"math/big"

	"github.com/ethereum/go-ethereum/crypto"
)

// vesterRole is RoleVesting.VESTER_ROLE.
var vesterRole = [32]byte(crypto.Keccak256([]byte("VESTER_ROLE")))

// vestingSchedule mirrors one schedule of RoleVesting.
type vestingSchedule struct {
	beneficiary account
	cliff, end  uint64
	revoked     bool
}

type vestingPlay struct {
	s         *session
	vesters   []account
	schedules []vestingSchedule
}

// vestingScenario: the admin grants the vester role to two accounts; they
// fund about sixty schedules (cliffs of one to three days, one to two weeks
// of vesting) in the first days; beneficiaries release what has vested;
// halfway the admin revokes two schedules and the second vester's role, and
// later a few more schedules.
// Reverts: schedules from accounts without the role (strangers, then the
// revoked vester), releases before the cliff or by others, revoking twice.
// Never called: renounceRole.
func vestingScenario(s *session) {
	p := &vestingPlay{s: s, vesters: s.users[:2]}
	admin := s.deployer
	s.maxGap = 60
	for _, v := range p.vesters {
		s.call(admin, nil, "grantRole", vesterRole, v.Addr)
	}
	s.maxGap = 500
	s.mixCount(100,
		step{16, func() { p.create(s.pick(p.vesters)) }},
		step{2, func() { p.create(s.pick(s.users[2:])) }}, // no role: reverts
		step{6, p.release},
		step{1, p.releaseByOther},
	)
	p.revoke()
	p.revoke()
	s.call(admin, nil, "revokeRole", vesterRole, p.vesters[1].Addr)
	s.maxGap = 900
	steps := []step{
		{20, p.release},
		{1, p.releaseByOther},
		{2, func() { p.create(p.vesters[1]) }}, // role revoked: reverts
		{3, func() { p.create(p.vesters[0]) }},
		{1, p.revoke},
	}
	s.mixCount(211, steps...)
}

// create funds a schedule for a random user, starting now.
func (p *vestingPlay) create(vester account) {
	s := p.s
	who := s.pick(s.users[2:])
	cliff, duration := uint64(s.between(1, 3))*day, uint64(s.between(7, 14))*day
	start := s.now() + 12 // the next block's time
	if s.call(vester, s.amountEther(500, 20000), "createSchedule", who.Addr, start, cliff, duration) {
		p.schedules = append(p.schedules, vestingSchedule{beneficiary: who, cliff: start + cliff, end: start + duration})
	}
}

// pick chooses a schedule, mostly one past its cliff.
func (p *vestingPlay) pick() (int, bool) {
	if len(p.schedules) == 0 {
		return 0, false
	}
	for range 6 {
		if i := p.s.rng.IntN(len(p.schedules)); p.schedules[i].cliff < p.s.now() {
			return i, true
		}
	}
	return p.s.rng.IntN(len(p.schedules)), true
}

func (p *vestingPlay) release() {
	if i, ok := p.pick(); ok {
		p.s.call(p.schedules[i].beneficiary, nil, "release", big.NewInt(int64(i)))
	}
}

// releaseByOther asks for someone else's schedule: reverts.
func (p *vestingPlay) releaseByOther() {
	if i, ok := p.pick(); ok {
		p.s.call(p.s.user(), nil, "release", big.NewInt(int64(i)))
	}
}

// revoke stops a schedule, now and then one already revoked (reverts).
func (p *vestingPlay) revoke() {
	if i, ok := p.pick(); ok && (!p.schedules[i].revoked || p.s.chance(0.3)) {
		if p.s.call(p.s.deployer, nil, "revoke", big.NewInt(int64(i))) {
			p.schedules[i].revoked = true
		}
	}
}
