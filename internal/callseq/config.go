package callseq

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
)

// Config tunes one run of Algorithm 1.
type Config struct {
	Budget int // T: successful calls to collect (the paper: 1,000)
	// MaxAttempts bounds the tries of SELECT steps per contract, fallbacks
	// included (the ownership transfers closing a sequence are still sent);
	// 0: AttemptFactor × Budget.
	MaxAttempts int
	Alpha       float64 // probability of taking a prerequisite (the paper: 0.8)
	Beta        float64 // probability of taking an obligation (the paper: 0.7)
	Bonus       float64 // UCB exploration weight c in rate + c·sqrt(ln N / n)
	Parts               // the protocol parts a profile sets
	// Stall ends a sequence after that many discarded steps in a row; 0: never.
	Stall int
	// MaxLength ends a sequence after that many kept calls; 0: unbounded (the paper).
	MaxLength int
	Gas       uint64 // gas limit of every call; 0: chain.DefaultGas
	// BlockGap is the mean number of blocks between two steps; 0: one
	// block, or with HistoryPace the history's own pace.
	BlockGap uint64
	Seed     uint64
}

// Parts are the settings in which our extended protocol departs from the
// paper's (§IV-E2 d, e): a profile fixes all of them, a flag each one.
type Parts struct {
	// Users is the number of accounts the `any` events are sent from, the
	// history's most frequent senders first; 0: every call is sent from the
	// deployer (the paper).
	Users int
	// HistoryTries and SearchTries bound the retries of a step whose call
	// reverted: recorded argument tuples, then generated ones. 0 and 0: the
	// call is discarded with no retry (the paper).
	HistoryTries, SearchTries int
	// FallbackPatience stops the retries of an event after that many steps
	// in a row in which they found nothing (they would only eat the attempt
	// bound); 0: never stop.
	FallbackPatience int
	// HistoryPace advances the blocks by a random gap whose mean is the
	// history's pace; false: one block of 12 seconds per call (the paper is
	// silent on time; this is our choice).
	HistoryPace bool
}

// Profiles of Algorithm 1's protocol parts.
const (
	ProfilePaper    = "paper"    // §IV-E2 as printed
	ProfileExtended = "extended" // our extensions: senders, retries, search, history pace
)

// ProfileNames lists the profiles, the default first.
func ProfileNames() []string { return []string{ProfilePaper, ProfileExtended} }

// ProfileParts is the setting of the named profile.
func ProfileParts(profile string) (Parts, error) {
	switch profile {
	case ProfilePaper:
		return Parts{}, nil
	case ProfileExtended:
		return Parts{Users: 4, HistoryTries: 3, SearchTries: 4, FallbackPatience: 3, HistoryPace: true}, nil
	}
	return Parts{}, fmt.Errorf("unknown profile %q (want one of %v)", profile, ProfileNames())
}

// IsProfile reports a known profile name.
func IsProfile(name string) bool { return slices.Contains(ProfileNames(), name) }

// DefaultConfig is the paper's setting (profile paper) plus the attempt
// bound this package adds.
func DefaultConfig() Config {
	return Config{Budget: 1000, Alpha: 0.8, Beta: 0.7, Bonus: math.Sqrt2, Seed: 42}
}

// ProfileConfig is DefaultConfig with the named profile's parts.
func ProfileConfig(profile string) (Config, error) {
	c := DefaultConfig()
	p, err := ProfileParts(profile)
	c.Parts = p
	return c, err
}

// AttemptFactor sets the default attempt bound, AttemptFactor × T tries
// per contract: a guard against a run that can never keep T calls (every
// candidate reverts), which Algorithm 1 as printed never stops. The paper
// has no bound, so the guard must not end a run that would reach T: the
// former 2·T ended 6 of the 12 demo contracts and 2 of the 18 mainnet ones
// short of it (discard rates up to 82% need 5.7·T tries); 10·T ends none
// that keeps more than one call in ten tries. It stays a bound, not 100·T:
// every refused try is a row and an O4 probe replayed on every sample, and
// a contract that can keep nothing (mainnet's MoonCatKeyVote keeps one
// call) would pay 100,000 of them.
const AttemptFactor = 10

// maxAttempts is the effective bound on tries.
func (c Config) maxAttempts() int {
	if c.MaxAttempts > 0 {
		return c.MaxAttempts
	}
	return AttemptFactor * c.Budget
}

// Validate reports settings the algorithm cannot run with.
func (c Config) Validate() error {
	var errs []error
	if c.Budget <= 0 {
		errs = append(errs, fmt.Errorf("budget must be positive, got %d", c.Budget))
	}
	if c.MaxAttempts < 0 || c.Stall < 0 || c.MaxLength < 0 || c.HistoryTries < 0 || c.SearchTries < 0 || c.FallbackPatience < 0 {
		errs = append(errs, errors.New("attempt, stall, length and fallback bounds must not be negative"))
	}
	for _, p := range []struct {
		name string
		v    float64
	}{{"alpha", c.Alpha}, {"beta", c.Beta}} {
		if p.v < 0 || p.v > 1 || math.IsNaN(p.v) {
			errs = append(errs, fmt.Errorf("%s must be a probability, got %v", p.name, p.v))
		}
	}
	if c.Bonus < 0 || math.IsNaN(c.Bonus) {
		errs = append(errs, fmt.Errorf("bonus must not be negative, got %v", c.Bonus))
	}
	if c.Users < 0 {
		errs = append(errs, fmt.Errorf("users must not be negative, got %d", c.Users))
	}
	return errors.Join(errs...)
}

// Version identifies the algorithm's behaviour: bump it when the sequences
// generated for the same input change, so stages recompute them.
const Version = "sequence-3" // 3: the default attempt bound is AttemptFactor × T

// UnitProfile is the profile a stage unit id ends with ("<...>/<profile>"),
// or "" when it names none: the o3 and sequences stages key their units by
// profile, and a run of one profile leaves the other's units alone.
func UnitProfile(unitID string) string {
	i := strings.LastIndex(unitID, "/")
	if p := unitID[i+1:]; i >= 0 && IsProfile(p) {
		return p
	}
	return ""
}
