package democorpus

import (
	"math/big"
)

// lockerPlay mirrors EtherLocker's locks.
type lockerPlay struct {
	s     *session
	locks []*etherLock
}

type etherLock struct {
	id          *big.Int
	beneficiary account
	release     uint64
	released    bool
}

// lockerScenario: two months of people locking ether for themselves or for
// others, from a day to a month ahead, and beneficiaries taking it out once
// due (some too early, which reverts). The operator postpones a few locks.
func lockerScenario(s *session) {
	l := &lockerPlay{s: s}
	s.maxGap = 2000
	s.mixCount(s.between(330, 370),
		step{36, l.lock},
		step{3, l.lockTooShort},
		step{1, func() { s.call(s.user(), nil, "lock", s.user().Addr, big.NewInt(int64(s.now()+40*day))) }}, // no ether: reverts
		step{34, l.releaseDue},
		step{6, l.releaseEarly},
		step{2, l.releaseByStranger},
		step{1, l.releaseTwice},
		step{3, l.extend},
		step{1, func() { l.extendBy(s.user()) }}, // not the owner: reverts
	)
}

func (l *lockerPlay) lock() {
	s := l.s
	from := s.user()
	beneficiary := from
	if s.chance(0.6) {
		beneficiary = s.user()
	}
	release := s.now() + uint64(s.between(1*day+2*hour, 30*day))
	id := s.viewUint("lockCount")
	if s.call(from, s.amountEther(50, 25000), "lock", beneficiary.Addr, new(big.Int).SetUint64(release)) {
		l.locks = append(l.locks, &etherLock{id: id, beneficiary: beneficiary, release: release})
	}
}

// lockTooShort asks for a release within the one-day minimum: reverts.
func (l *lockerPlay) lockTooShort() {
	s := l.s
	release := s.now() + uint64(s.between(hour, 20*hour))
	s.call(s.user(), s.amountEther(100, 2000), "lock", s.user().Addr, new(big.Int).SetUint64(release))
}

// pickLock picks an unreleased lock that is (or is not yet) due.
func (l *lockerPlay) pickLock(due bool) *etherLock {
	k, _ := pickWhere(l.s, l.locks, func(k *etherLock) bool {
		// not yet due: with a margin, as the next block may come hours later
		return !k.released && (due && k.release < l.s.now() || !due && k.release > l.s.now()+12*hour)
	})
	return k
}

func (l *lockerPlay) releaseDue() { l.release(l.pickLock(true)) }

// releaseEarly asks for a lock before it is due: reverts.
func (l *lockerPlay) releaseEarly() { l.release(l.pickLock(false)) }

// release has the beneficiary take the lock's ether out.
func (l *lockerPlay) release(k *etherLock) {
	if k != nil && l.s.call(k.beneficiary, nil, "release", k.id) {
		k.released = true
	}
}

func (l *lockerPlay) releaseByStranger() {
	if k := l.pickLock(true); k != nil {
		if other := l.s.user(); other.Addr != k.beneficiary.Addr {
			l.s.call(other, nil, "release", k.id)
		}
	}
}

func (l *lockerPlay) releaseTwice() {
	for _, k := range l.locks {
		if k.released {
			l.s.call(k.beneficiary, nil, "release", k.id)
			return
		}
	}
}

func (l *lockerPlay) extend() { l.extendBy(l.s.deployer) }

// extendBy postpones a lock that is not due yet by one to four weeks.
func (l *lockerPlay) extendBy(caller account) {
	k := l.pickLock(false)
	if k == nil {
		return
	}
	release := k.release + uint64(l.s.between(7, 28))*day
	if l.s.call(caller, nil, "extendLock", k.id, new(big.Int).SetUint64(release)) {
		k.release = release
	}
}
