package pipeline

import (
	"errors"
	"fmt"
)

// UnitError is a unit failure with the class the `errors` dataset records.
type UnitError struct {
	Class     string // e.g. compile, deploy, source, network, rate_limit, timeout, llm, panic
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

// Classify returns the class and retriability of a unit error.
func Classify(err error) (class string, retriable bool) {
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
