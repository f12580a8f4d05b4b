// Package egress builds the HTTP clients that talk to servers outside the
// project (Etherscan, language-model endpoints): redirects are followed only
// within the first request's origin (scheme, host and port), so a key in a
// header or in the query never reaches another server, and answers are read
// to a bound, so a hostile or broken server cannot exhaust memory.
package egress

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"
)

// ErrCrossOrigin is a redirect to another origin, refused.
var ErrCrossOrigin = errors.New("redirect to another origin refused (credentials stay with the configured endpoint)")

// ErrTooLarge is an answer over the read bound.
var ErrTooLarge = errors.New("answer over the size limit")

// Client returns an http.Client with the timeout per attempt, a transport
// (nil: http.DefaultTransport) whose answers are limited to maxBody bytes,
// and same-origin redirects only.
func Client(timeout time.Duration, transport http.RoundTripper, maxBody int64) *http.Client {
	if transport == nil {
		transport = http.DefaultTransport
	}
	return &http.Client{Timeout: timeout, Transport: Limit(transport, maxBody), CheckRedirect: SameOrigin}
}

// SameOrigin is an http.Client.CheckRedirect that refuses redirects leaving
// the first request's origin, and chains longer than 10.
func SameOrigin(req *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return errors.New("stopped after 10 redirects")
	}
	if Origin(req.URL) != Origin(via[0].URL) {
		return fmt.Errorf("%w: %s to %s", ErrCrossOrigin, Origin(via[0].URL), Origin(req.URL))
	}
	return nil
}

// Origin is scheme://host:port with the scheme's default port made explicit.
func Origin(u *url.URL) string {
	port := u.Port()
	if port == "" {
		switch u.Scheme {
		case "https":
			port = "443"
		case "http":
			port = "80"
		}
	}
	return u.Scheme + "://" + u.Hostname() + ":" + port
}

// Limit wraps next so a response body longer than max bytes fails with
// ErrTooLarge when read past the bound, instead of being silently cut.
func Limit(next http.RoundTripper, max int64) http.RoundTripper {
	return limited{next, max}
}

type limited struct {
	next http.RoundTripper
	max  int64
}

func (l limited) RoundTrip(req *http.Request) (*http.Response, error) {
	res, err := l.next.RoundTrip(req)
	if err != nil || res.Body == nil {
		return res, err
	}
	res.Body = &boundedBody{ReadCloser: res.Body, left: l.max}
	return res, nil
}

type boundedBody struct {
	io.ReadCloser
	left int64
}

func (b *boundedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		// One byte more than allowed tells a full body from a long one.
		var one [1]byte
		n, err := b.ReadCloser.Read(one[:])
		if n > 0 {
			return 0, ErrTooLarge
		}
		return 0, err
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.ReadCloser.Read(p)
	b.left -= int64(n)
	return n, err
}

// ReadAll reads r to at most max bytes, failing with ErrTooLarge past them.
func ReadAll(r io.Reader, max int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("%w (%d bytes)", ErrTooLarge, max)
	}
	return b, nil
}
