package llm

import (
	"errors"
	"fmt"
)

// Error kinds.
const (
	KindTimeout   = "timeout"    // no answer within Options.Timeout (retried)
	KindRateLimit = "rate_limit" // HTTP 429 (retried)
	KindHTTP      = "http"       // another non-200 status (5xx retried)
	KindNetwork   = "network"    // connection failed (retried)
	KindBadReply  = "bad_reply"  // 200 but not a chat-completions JSON answer
	KindCanceled  = "canceled"   // the caller's context ended
	KindConfig    = "config"     // no endpoint, no messages
	KindAuth      = "auth"       // 401/403: the key is wrong or missing (not retried)
	KindEndpoint  = "endpoint"   // not a chat-completions endpoint: 404 and other 4xx, a redirect to another origin, an oversized reply (not retried)
)

// Error is a failed completion. Its text never holds the API key.
type Error struct {
	Kind     string
	Status   int // HTTP status, for http and rate_limit
	Msg      string
	Attempts int
}

func (e *Error) Error() string {
	s := "llm: " + e.Kind
	if e.Status != 0 {
		s += fmt.Sprintf(" %d", e.Status)
	}
	if e.Attempts > 1 {
		s += fmt.Sprintf(" after %d attempts", e.Attempts)
	}
	if e.Msg != "" {
		s += ": " + e.Msg
	}
	return s
}

// IsTransient reports whether err is a failed completion that a later try
// may turn into a success (timeout, rate limit, 5xx, network).
func IsTransient(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Retriable()
}

// Retriable reports whether trying again may succeed.
func (e *Error) Retriable() bool {
	switch e.Kind {
	case KindTimeout, KindRateLimit, KindNetwork:
		return true
	case KindHTTP:
		return e.Status >= 500
	}
	return false
}
