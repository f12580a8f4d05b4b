// Package walltime marks failures caused by a wall-clock limit. How long a
// piece of work takes depends on the machine's load and speed, not on its
// inputs, so running out of time must never become a result (a verdict, a
// stop reason, a count): the unit fails with class timeout and is retried
// (failure.Of recognises an *Error wherever it is wrapped). Results
// are bounded deterministically instead: by calls, gas or generations.
package walltime

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Error is work that ran past its wall-clock limit; Err says which work.
type Error struct {
	Limit time.Duration
	Err   error
}

func (e *Error) Error() string {
	return fmt.Sprintf("%v: over the wall-clock limit of %s", e.Err, e.Limit)
}
func (e *Error) Unwrap() error { return e.Err }

// Errorf is an *Error for the work described by format and args.
func Errorf(limit time.Duration, format string, args ...any) error {
	return &Error{Limit: limit, Err: fmt.Errorf(format, args...)}
}

// Is tells whether err is, or wraps, a wall-clock failure.
func Is(err error) bool {
	var e *Error
	return errors.As(err, &e)
}

// Check is ctx's error, or an *Error once the work begun at start has run
// past limit (no limit when limit <= 0). describe says what the work had
// done, given how long it ran; it is called only when the limit is passed.
func Check(ctx context.Context, start time.Time, limit time.Duration, describe func(ran time.Duration) string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if ran := time.Since(start); limit > 0 && ran > limit {
		return &Error{Limit: limit, Err: errors.New(describe(ran.Round(time.Millisecond)))}
	}
	return nil
}
