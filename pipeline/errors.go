package pipeline

import (
	"errors"
	"fmt"

	"github.com/solbehave/solbehave/internal/walltime"
)

// Failure classes shared by several stages and engines (schemas/errors.md
// lists them all). Retried where a retry can help: network, rate limit,
// timeout, storage and a server's 5xx; never auth, input, endpoint, source.
const (
	ClassInput     = "input"      // a corpus folder, address or name from outside that cannot be used
	ClassAuth      = "auth"       // a wrong or missing API key
	ClassRateLimit = "rate_limit" // the service asks us to slow down
	ClassNetwork   = "network"    // connection refused, reset, DNS
	ClassTimeout   = "timeout"    // no answer in time, or a request's deadline spent on retries
	ClassEndpoint  = "endpoint"   // the URL answers, but not as the API: 4xx, a cross-origin redirect, an oversized answer
	ClassStorage   = "storage"    // the unit's outputs could not be written
)

// UnitError is a unit failure with the class the `errors` dataset records.
type UnitError struct {
	Class     string // one of the Class constants, or a stage's: compile, deploy, source, llm, panic
	Retriable bool   // transient: a rerun may succeed
	Err       error
}

func (e *UnitError) Error() string { return fmt.Sprintf("%s: %v", e.Class, e.Err) }
func (e *UnitError) Unwrap() error { return e.Err }

// Fail wraps err with its class.
func Fail(class string, retriable bool, err error) error {
	if err == nil {
		return nil
	}
	return &UnitError{Class: class, Retriable: retriable, Err: err}
}

// Classify returns the class and retriability of a unit error. A wall-clock
// limit anywhere in the chain (walltime.Error) makes it a retriable timeout,
// whatever class a stage wrapped it in: it says nothing about the input.
func Classify(err error) (class string, retriable bool) {
	if walltime.Is(err) {
		return ClassTimeout, true
	}
	var ue *UnitError
	if errors.As(err, &ue) {
		return ue.Class, ue.Retriable
	}
	var r interface{ Retriable() bool }
	if errors.As(err, &r) {
		return "external", r.Retriable()
	}
	return "internal", false
}

// ErrText is err's message, "" for nil: how errors enter fingerprints and
// reason columns.
func ErrText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
