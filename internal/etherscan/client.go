package etherscan

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	esapi "github.com/nanmu42/etherscan-api"
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
	Timeout       time.Duration     // per request; default 30s
	CacheDir      string            // answers cached here keyed by request; "" disables
	Transport     http.RoundTripper // default http.DefaultTransport
}

// Client is safe for concurrent use.
type Client struct {
	api     *esapi.Client
	key     string
	retries int
	backoff time.Duration
}

// Error is a failed request, with the API key removed from its message.
type Error struct {
	Op        string // getsourcecode, txlist, ...
	Address   string
	Retriable bool // network trouble, rate limit, timeout: worth asking again
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
	transport := o.Transport
	if transport == nil {
		transport = http.DefaultTransport
	}
	if o.CacheDir != "" {
		transport = &cachingTransport{next: transport, dir: o.CacheDir}
	}
	limiter := newLimiter(o.RatePerSecond)
	api := esapi.NewCustomized(esapi.Customization{
		BaseURL: o.BaseURL,
		Key:     o.Key,
		Client:  &http.Client{Timeout: o.Timeout, Transport: transport},
		BeforeRequest: func(string, string, map[string]interface{}) error {
			limiter.wait()
			return nil
		},
	})
	return &Client{api: api, key: o.Key, retries: o.Retries, backoff: o.Backoff}
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
func (c *Client) Source(address string) (*esapi.ContractSource, error) {
	var out []esapi.ContractSource
	err := c.retry("getsourcecode", address, func() (err error) {
		out, err = c.api.ContractSource(address)
		return err
	})
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, &Error{Op: "getsourcecode", Address: address, Msg: "empty result"}
	}
	return &out[0], nil
}

// PageSize is how many transactions one txlist request asks for.
const PageSize = 1000

// Transactions returns up to limit external transactions in ascending order,
// paging through txlist as needed.
func (c *Client) Transactions(address string, limit int) ([]esapi.NormalTx, error) {
	var all []esapi.NormalTx
	for page := 1; len(all) < limit; page++ {
		var txs []esapi.NormalTx
		err := c.retry("txlist", address, func() (err error) {
			txs, err = c.api.NormalTxByAddress(address, nil, nil, page, PageSize, false)
			return err
		})
		if isNoResults(err) {
			break
		}
		if err != nil {
			return nil, err
		}
		all = append(all, txs...)
		if len(txs) < PageSize {
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

// retry runs call, retrying retriable failures with exponential backoff.
func (c *Client) retry(op, address string, call func() error) error {
	delay := c.backoff
	for attempt := 0; ; attempt++ {
		err := call()
		if err == nil {
			return nil
		}
		e := &Error{Op: op, Address: address, Msg: c.redact(err.Error()), Retriable: retriable(err.Error())}
		if !e.Retriable || attempt >= c.retries {
			return e
		}
		time.Sleep(delay)
		delay *= 2
	}
}

func (c *Client) redact(s string) string {
	if c.key == "" {
		return s
	}
	return strings.ReplaceAll(s, c.key, "REDACTED")
}

// retriable tells transient failures (worth another try) from permanent ones.
func retriable(msg string) bool {
	m := strings.ToLower(msg)
	for _, s := range []string{"rate limit", "notok", "timeout", "deadline exceeded", "connection refused",
		"connection reset", "eof", "response status 5", "response status 429", "sending request", "temporarily"} {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}

// limiter spaces requests evenly at a fixed rate.
type limiter struct {
	mu       sync.Mutex
	interval time.Duration
	next     time.Time
}

func newLimiter(perSecond float64) *limiter {
	return &limiter{interval: time.Duration(float64(time.Second) / perSecond)}
}

func (l *limiter) wait() {
	l.mu.Lock()
	now := time.Now()
	if l.next.Before(now) {
		l.next = now
	}
	sleep := l.next.Sub(now)
	l.next = l.next.Add(l.interval)
	l.mu.Unlock()
	time.Sleep(sleep)
}
