// Package failure names why a unit failed: the class the `errors` dataset
// records (schemas/errors.md) and whether a rerun may succeed. It is a leaf,
// so engines classify their own errors without importing the runner.
package failure

import (
	"errors"
	"fmt"

	"github.com/solbehave/solbehave/internal/walltime"
)

//go:generate go run golang.org/x/tools/cmd/stringer@v0.49.0 -type=Class -linecomment

// Class is a failure class. Its String is the value of `errors.class`.
type Class uint8

// Classes shared by several stages and engines first, then the step of a
// stage that failed. Retried where a retry can help: network, rate limit,
// timeout, storage and a server's 5xx; never auth, input, endpoint, source.
const (
	Internal    Class = iota // internal
	Input                    // input
	Source                   // source
	Unverified               // unverified
	Auth                     // auth
	RateLimit                // rate_limit
	Network                  // network
	Timeout                  // timeout
	Endpoint                 // endpoint
	Storage                  // storage
	Panic                    // panic
	External                 // external
	Compile                  // compile
	Deploy                   // deploy
	NoHistory                // no_history
	Replay                   // replay
	Artifact                 // artifact
	Skeleton                 // skeleton
	Sample                   // sample
	LLM                      // llm
	DCR                      // dcr
	Annotations              // annotations
	Sequences                // sequences
	Vuln                     // vuln
	Injected                 // injected
	numClasses
)

// All lists every class, in declaration order.
func All() []Class {
	out := make([]Class, numClasses)
	for i := range out {
		out[i] = Class(i)
	}
	return out
}

// Parse returns the class a string names (as String writes it).
func Parse(s string) (Class, bool) {
	for _, c := range All() {
		if c.String() == s {
			return c, true
		}
	}
	return Internal, false
}

// Error is a failure with its class.
type Error struct {
	Class     Class
	Retriable bool // transient: a rerun may succeed
	Err       error
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %v", e.Class, e.Err) }
func (e *Error) Unwrap() error { return e.Err }

// New wraps err with its class; nil stays nil. An err that already carries
// a transient failure (an engine's network or storage trouble: a compiler
// that could not be installed) keeps it: a stage that wraps a step's error
// in a permanent class must not make a rerun skip what may work next time.
func New(c Class, retriable bool, err error) error {
	if err == nil {
		return nil
	}
	var inner *Error
	if !retriable && errors.As(err, &inner) && inner.Retriable {
		return err
	}
	return &Error{Class: c, Retriable: retriable, Err: err}
}

// Of returns the class and retriability of err: a retriable timeout when a
// wall-clock limit cut it (a walltime.Error anywhere in the chain, whatever
// class a stage wrapped it in: it says nothing of the input), else its own
// class when it carries one, external for another package's error that says
// whether it is transient, else internal (a bug, never retried).
func Of(err error) (Class, bool) {
	if walltime.Is(err) {
		return Timeout, true
	}
	var fe *Error
	if errors.As(err, &fe) {
		return fe.Class, fe.Retriable
	}
	var r interface{ Retriable() bool }
	if errors.As(err, &r) {
		return External, r.Retriable()
	}
	return Internal, false
}
