package sequence

import (
	"errors"
	"fmt"
	"math"
)

// Config tunes one run of Algorithm 1.
type Config struct {
	Budget int // T: successful calls to collect (the paper: 1,000)
	// MaxAttempts bounds the tries of SELECT steps per contract, fallbacks
	// included (the ownership transfers closing a sequence are still sent);
	// 0: 2 × Budget (the paper tried 1.2 calls per kept one overall).
	MaxAttempts int
	Alpha       float64 // probability of taking a prerequisite (the paper: 0.8)
	Beta        float64 // probability of taking an obligation (the paper: 0.7)
	Bonus       float64 // UCB exploration weight c in rate + c·sqrt(ln N / n)
	Users       int     // accounts the `any` events are sent from
	Fallback    bool    // try history, then generated arguments, when the proposed ones revert
	// HistoryTries and SearchTries bound the fallback's tuples per step.
	HistoryTries, SearchTries int
	// FallbackPatience stops the fallback for an event after that many
	// steps in a row in which it found nothing (its tries would only eat the
	// attempt bound); 0: never stop.
	FallbackPatience int
	// Stall ends a sequence after that many discarded steps in a row; 0: never.
	Stall int
	// MaxLength ends a sequence after that many kept calls; 0: unbounded (the paper).
	MaxLength int
	Gas       uint64 // gas limit of every call; 0: chain.DefaultGas
	// BlockGap is the mean number of blocks between two steps; 0: the
	// history's own pace.
	BlockGap uint64
	Seed     uint64
}

// DefaultConfig is the paper's setting plus the bounds this package adds.
func DefaultConfig() Config {
	return Config{Budget: 1000, Alpha: 0.8, Beta: 0.7, Bonus: math.Sqrt2, Users: 4, Fallback: true,
		HistoryTries: 3, SearchTries: 4, FallbackPatience: 3, Seed: 42}
}

// maxAttempts is the effective bound on tries.
func (c Config) maxAttempts() int {
	if c.MaxAttempts > 0 {
		return c.MaxAttempts
	}
	return 2 * c.Budget
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
	if c.Users <= 0 {
		errs = append(errs, fmt.Errorf("users must be positive, got %d", c.Users))
	}
	return errors.Join(errs...)
}

// Version identifies the algorithm's behaviour: bump it when the sequences
// generated for the same input change, so stages recompute them.
const Version = "sequence-1"
