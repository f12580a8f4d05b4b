package etherscan

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	esapi "github.com/nanmu42/etherscan-api"
	"golang.org/x/time/rate"

	"github.com/solbehave/solbehave/internal/egress"
	"github.com/solbehave/solbehave/internal/failure"
	"github.com/solbehave/solbehave/internal/redact"
)

// DefaultBaseURL is Etherscan's V2 endpoint; %d is the chain id.
const DefaultBaseURL = "https://api.etherscan.io/v2/api?chainid=%d&"

// Options configure a live client.
type Options struct {
	BaseURL       string            // with a trailing '?' or '&'; default DefaultBaseURL
	ChainID       int               // default 1 (mainnet)
	Key           string            // never logged, cached or stored
	RatePerSecond float64           // default 5
	Retries       int               // attempts after the first on retriable errors; default 5
	Backoff       time.Duration     // first retry delay, doubled each time; default 500ms
	Timeout       time.Duration     // per attempt; default 30s
	Deadline      time.Duration     // per request, attempts and waits included; default 2m
	MaxAnswer     int64             // bytes of one answer read at most; default 64 MiB
	CacheDir      string            // answers cached here keyed by request; "" disables
	Transport     http.RoundTripper // default http.DefaultTransport
}

// Client is safe for concurrent use.
type Client struct {
	api      *esapi.Client
	limiter  *rate.Limiter // spaces requests evenly (burst 1)
	retries  int
	backoff  time.Duration
	deadline time.Duration
}

// Error is a failed request, with the API key removed from its message.
type Error struct {
	Op        string // getsourcecode, txlist, ...
	Address   string
	Class     failure.Class // auth, rate_limit, network, timeout, endpoint, input, source (see Classify)
	Retriable bool          // network trouble, rate limit, timeout, a 5xx: worth asking again
	Msg       string
}

func (e *Error) Error() string { return fmt.Sprintf("etherscan %s %s: %s", e.Op, e.Address, e.Msg) }

// NewLive returns a client of the live API.
func NewLive(o Options) *Client {
	if o.ChainID == 0 {
		o.ChainID = 1
	}
	if o.BaseURL == "" {
		o.BaseURL = fmt.Sprintf(DefaultBaseURL, o.ChainID)
	}
	if o.RatePerSecond <= 0 {
		o.RatePerSecond = 5
	}
	if o.Timeout <= 0 {
		o.Timeout = 30 * time.Second
	}
	if o.Backoff <= 0 {
		o.Backoff = 500 * time.Millisecond
	}
	if o.Retries == 0 {
		o.Retries = 5
	}
	if o.Deadline <= 0 {
		o.Deadline = 2 * time.Minute
	}
	if o.MaxAnswer <= 0 {
		o.MaxAnswer = 64 << 20
	}
	redact.Add(o.Key)
	redact.AddURL(o.BaseURL) // a key written into the URL instead
	transport := o.Transport
	if transport == nil {
		transport = http.DefaultTransport
	}
	transport = answerTransport{egress.Limit(transport, o.MaxAnswer)}
	if o.CacheDir != "" {
		transport = &cachingTransport{next: transport, dir: o.CacheDir, max: o.MaxAnswer}
	}
	api := esapi.NewCustomized(esapi.Customization{
		BaseURL: o.BaseURL,
		Key:     o.Key,
		Client:  &http.Client{Timeout: o.Timeout, Transport: transport, CheckRedirect: egress.SameOrigin},
	})
	return &Client{api: api, limiter: rate.NewLimiter(rate.Limit(o.RatePerSecond), 1),
		retries: o.Retries, backoff: o.Backoff, deadline: o.Deadline}
}

// NewRecorded returns a client that reads a corpus folder through the same
// client and parsing code as the live API.
func NewRecorded(dir string) (*Client, error) {
	t, err := newRecordedTransport(dir)
	if err != nil {
		return nil, err
	}
	return NewLive(Options{BaseURL: "http://recorded.invalid/api?", Transport: t, RatePerSecond: 1e9, Retries: -1}), nil
}

// Source returns the verified source record of a contract. An unverified
// contract (empty SourceCode) is returned as is: callers record why they skip it.
func (c *Client) Source(ctx context.Context, address string) (*esapi.ContractSource, error) {
	var out []esapi.ContractSource
	err := c.retry(ctx, "getsourcecode", address, func() (err error) {
		out, err = c.api.ContractSource(address)
		return err
	})
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, &Error{Op: "getsourcecode", Address: address, Class: failure.Source, Msg: "empty result"}
	}
	return &out[0], nil
}

// PageSize is how many transactions one txlist request asks for.
const PageSize = 1000

// Transactions returns up to limit external transactions in ascending order,
// paging through txlist as needed.
func (c *Client) Transactions(ctx context.Context, address string, limit int) ([]esapi.NormalTx, error) {
	var all []esapi.NormalTx
	// A page no larger than the limit: verify's plan reads 201 transactions
	// of every candidate, whose history is recorded 1,000 deep; decoding the
	// other 799 cost more CPU than the 201.
	size := min(PageSize, limit)
	for page := 1; len(all) < limit; page++ {
		var txs []esapi.NormalTx
		err := c.retry(ctx, "txlist", address, func() (err error) {
			txs, err = c.api.NormalTxByAddress(address, nil, nil, page, size, false)
			return err
		})
		if isNoResults(err) {
			break
		}
		if err != nil {
			return nil, err
		}
		all = append(all, txs...)
		if len(txs) < size {
			break
		}
	}
	if len(all) > limit {
		all = all[:limit]
	}
	return all, nil
}

func isNoResults(err error) bool {
	var e *Error
	return errors.As(err, &e) && strings.Contains(strings.ToLower(e.Msg), "no transactions found")
}

// retry runs call at the client's rate, retrying retriable failures with
// exponential backoff until the request's deadline; a cancelled ctx ends the
// waits at once.
func (c *Client) retry(ctx context.Context, op, address string, call func() error) error {
	start := time.Now()
	delay := c.backoff
	for attempt := 1; ; attempt++ {
		if err := c.limiter.Wait(ctx); err != nil {
			return &Error{Op: op, Address: address, Class: failure.Timeout, Retriable: true, Msg: err.Error()}
		}
		err := call()
		if err == nil {
			return nil
		}
		class, retriable := Classify(err.Error())
		e := &Error{Op: op, Address: address, Class: class, Msg: redact.String(err.Error()), Retriable: retriable}
		if !e.Retriable || attempt > c.retries {
			return e
		}
		if time.Since(start)+delay > c.deadline {
			e.Msg += fmt.Sprintf(" (gave up after %d attempts: the request's deadline is %s)", attempt, c.deadline)
			return e
		}
		select {
		case <-ctx.Done():
			e.Msg += " (cancelled while waiting to retry)"
			return e
		case <-time.After(delay):
		}
		delay *= 2
	}
}

// Classify tells what a failed request met, from the client's message (which
// carries the answer's result, see answerTransport), and whether asking again
// can help: a wrong key, a bad address or a malformed answer will not change;
// the network, a rate limit or a server error may.
func Classify(msg string) (class failure.Class, retriable bool) {
	m := strings.ToLower(msg)
	has := func(words ...string) bool {
		for _, w := range words {
			if strings.Contains(m, w) {
				return true
			}
		}
		return false
	}
	switch {
	// Before the key: Etherscan's rate-limit answer without a key says
	// "... please use API Key for higher rate limit".
	case has("rate limit", "max calls per", "response status 429"):
		return failure.RateLimit, true
	case has("api key", "response status 401", "response status 403"):
		return failure.Auth, false
	case has("deadline exceeded", "timeout"):
		return failure.Timeout, true
	case has("response status 5", "temporarily"):
		return failure.Endpoint, true
	case has(strings.ToLower(egress.ErrCrossOrigin.Error()), strings.ToLower(egress.ErrTooLarge.Error()),
		"response status", "stopped after 10 redirects"):
		return failure.Endpoint, false
	case has("connection refused", "connection reset", "eof", "no such host", "sending request", "reading response"):
		return failure.Network, true
	case has("invalid address"):
		return failure.Input, false
	}
	return failure.Source, false
}
