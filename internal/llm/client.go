package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/solbehave/solbehave/internal/egress"
	"github.com/solbehave/solbehave/internal/redact"
)

// KeyEnv is the environment variable read when Options.APIKey is empty.
const KeyEnv = "SOLBEHAVE_LLM_API_KEY"

// Options configure a Client. Zero values mean the defaults noted.
type Options struct {
	BaseURL     string        // API root, e.g. http://localhost:8080/v1 (…/chat/completions is appended)
	Model       string        // the model name the server knows
	APIKey      string        // "" = $SOLBEHAVE_LLM_API_KEY; never logged
	Timeout     time.Duration // per attempt; default 120s
	Deadline    time.Duration // per request, attempts and waits included; default 10m
	Retries     int           // extra attempts on timeouts, 429, 5xx and network errors; 0 = none
	Concurrency int           // requests in flight at once; default 4
	CacheDir    string        // on-disk reply cache; "" = no cache
	Backoff     time.Duration // delay before the first retry, doubled each time (max 30s); default 1s
}

// Message is one chat message.
type Message struct {
	Role    string `json:"role"` // system, user, assistant
	Content string `json:"content"`
}

// Request is one chat completion.
type Request struct {
	Purpose     string // what the call is for (generate, repair, natspec, dcr, ...); recorded, not sent
	Messages    []Message
	Temperature float64
	MaxTokens   int
	Seed        int64
}

// Response is a completion's text and what it cost.
type Response struct {
	Content      string
	FinishReason string
	TokensIn     *int64 // as the server reported them; nil when it reported none, or no plausible count
	TokensOut    *int64
	Warning      string // why a figure the server reported is recorded as unknown
	LatencyMS    int64 // wall time of the call, attempts and waits included (0-ish when cached)
	Cached       bool
	Attempts     int // HTTP attempts made (0 when cached)
}

// Client talks to one model on one endpoint. It is safe for concurrent use.
type Client struct {
	opts  Options
	key   string
	http  *http.Client
	slots chan struct{}
	cache *cache
}

// New returns a client; it does not contact the server.
func New(o Options) *Client {
	if o.Timeout <= 0 {
		o.Timeout = 120 * time.Second
	}
	if o.Concurrency <= 0 {
		o.Concurrency = 4
	}
	if o.Backoff <= 0 {
		o.Backoff = time.Second
	}
	if o.Deadline <= 0 {
		o.Deadline = 10 * time.Minute
	}
	o.Retries = max(o.Retries, 0)
	key := o.APIKey
	if key == "" {
		key = os.Getenv(KeyEnv)
	}
	o.APIKey = "" // kept only in c.key, so printing Options shows no secret
	redact.Add(key)
	if len(key) >= redact.MinLen { // the header value as sent: its base64 or hex holds the key's at no fixed alignment
		redact.Add("Bearer " + key)
	}
	redact.AddURL(o.BaseURL) // user:password@ or a key in the query
	// Same-origin redirects only: the Authorization header never reaches
	// another scheme, host or port. Attempts are bounded by their context.
	c := &Client{opts: o, key: key, http: egress.Client(0, nil, maxReply), slots: make(chan struct{}, o.Concurrency)}
	if o.CacheDir != "" {
		c.cache = &cache{dir: o.CacheDir}
	}
	return c
}

// Model is the model name requests are sent with.
func (c *Client) Model() string { return c.opts.Model }

// Complete sends one chat completion, from the cache when it was answered before.
func (c *Client) Complete(ctx context.Context, req Request) (*Response, error) {
	start := time.Now()
	if c.opts.BaseURL == "" {
		return nil, &Error{Kind: KindConfig, Msg: "no endpoint configured (--llm-url)"}
	}
	body, key, err := c.encode(req)
	if err != nil {
		return nil, err
	}
	if c.cache != nil {
		if r, ok := c.cache.get(key); ok {
			r.Cached, r.Attempts, r.LatencyMS = true, 0, time.Since(start).Milliseconds()
			return r, nil
		}
	}
	resp, err := c.withRetries(ctx, body)
	if err != nil {
		return nil, err
	}
	resp.LatencyMS = time.Since(start).Milliseconds()
	if c.cache != nil {
		c.cache.put(key, resp) // a failed cache write only costs a repeat request
	}
	return resp, nil
}

type wireRequest struct {
	Model       string    `json:"model"`
	Messages    []Message `json:"messages"`
	Temperature float64   `json:"temperature"`
	MaxTokens   int       `json:"max_tokens,omitempty"`
	Seed        int64     `json:"seed"`
	Stream      bool      `json:"stream"`
}

// encode builds the request body; the body is also the cache key's preimage
// (it holds exactly the model, messages, parameters and seed).
func (c *Client) encode(req Request) ([]byte, string, error) {
	if len(req.Messages) == 0 {
		return nil, "", &Error{Kind: KindConfig, Msg: "request has no messages"}
	}
	body, err := json.Marshal(wireRequest{Model: c.opts.Model, Messages: req.Messages,
		Temperature: req.Temperature, MaxTokens: req.MaxTokens, Seed: req.Seed})
	if err != nil {
		return nil, "", &Error{Kind: KindConfig, Msg: err.Error()}
	}
	return body, sha256Hex(body), nil
}

// maxReply is the most bytes of one reply read.
const maxReply = 64 << 20

func (c *Client) withRetries(ctx context.Context, body []byte) (*Response, error) {
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, c.opts.Deadline)
	defer cancel()
	for attempt := 1; ; attempt++ {
		resp, wait, err := c.attempt(ctx, body)
		if err == nil {
			resp.Attempts = attempt
			return resp, nil
		}
		var e *Error
		if !errors.As(err, &e) {
			e = &Error{Kind: KindNetwork, Msg: err.Error()}
		}
		e.Attempts = attempt
		if parent.Err() == nil && ctx.Err() != nil {
			return nil, c.pastDeadline(e)
		}
		if !e.Retriable() || attempt > c.opts.Retries || ctx.Err() != nil {
			return nil, e
		}
		if wait <= 0 {
			wait = min(c.opts.Backoff<<(attempt-1), 30*time.Second)
		}
		if dl, _ := ctx.Deadline(); time.Now().Add(wait).After(dl) {
			return nil, c.pastDeadline(e)
		}
		select {
		case <-ctx.Done():
			return nil, &Error{Kind: KindCanceled, Msg: ctx.Err().Error(), Attempts: attempt}
		case <-time.After(wait):
		}
	}
}

// pastDeadline is the error of a request whose own deadline ended its
// retries: a timeout (retriable on a later run), with the last failure.
func (c *Client) pastDeadline(last *Error) *Error {
	return &Error{Kind: KindTimeout, Attempts: last.Attempts,
		Msg: fmt.Sprintf("no answer within the request's deadline of %s, retries included (last: %s)", c.opts.Deadline, last.Msg)}
}

// attempt makes one HTTP request within a concurrency slot. wait is the
// server's Retry-After, when it gave one.
func (c *Client) attempt(ctx context.Context, body []byte) (*Response, time.Duration, error) {
	select {
	case c.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, 0, &Error{Kind: KindCanceled, Msg: ctx.Err().Error()}
	}
	defer func() { <-c.slots }()
	actx, cancel := context.WithTimeout(ctx, c.opts.Timeout)
	defer cancel()
	hreq, err := http.NewRequestWithContext(actx, http.MethodPost, c.endpoint(), bytes.NewReader(body))
	if err != nil {
		return nil, 0, &Error{Kind: KindConfig, Msg: "bad endpoint URL"}
	}
	hreq.Header.Set("Content-Type", "application/json")
	if c.key != "" {
		hreq.Header.Set("Authorization", "Bearer "+c.key)
	}
	hresp, err := c.http.Do(hreq)
	if err != nil {
		return nil, 0, c.transportError(ctx, actx, err)
	}
	defer hresp.Body.Close()
	raw, err := io.ReadAll(hresp.Body) // bounded by the egress transport
	if errors.Is(err, egress.ErrTooLarge) {
		return nil, 0, &Error{Kind: KindEndpoint, Msg: fmt.Sprintf("reply over %d bytes", maxReply)}
	}
	if err != nil {
		return nil, 0, c.transportError(ctx, actx, err)
	}
	if hresp.StatusCode != http.StatusOK {
		return nil, retryAfter(hresp), c.statusError(hresp.StatusCode, raw)
	}
	resp, err := decode(raw)
	if err != nil {
		return nil, 0, &Error{Kind: KindBadReply, Msg: redact.String(err.Error())}
	}
	// A key the server echoed never reaches a sample, a row or the cache.
	resp.Content, resp.FinishReason = redact.String(resp.Content), redact.String(resp.FinishReason)
	return resp, 0, nil
}

func (c *Client) endpoint() string {
	base := strings.TrimRight(c.opts.BaseURL, "/")
	if strings.HasSuffix(base, "/chat/completions") {
		return base
	}
	return base + "/chat/completions"
}

func (c *Client) transportError(ctx, actx context.Context, err error) error {
	switch {
	case ctx.Err() != nil:
		return &Error{Kind: KindCanceled, Msg: ctx.Err().Error()}
	case actx.Err() != nil:
		return &Error{Kind: KindTimeout, Msg: fmt.Sprintf("no answer within %s", c.opts.Timeout)}
	}
	if errors.Is(err, egress.ErrCrossOrigin) {
		return &Error{Kind: KindEndpoint, Msg: redact.String(err.Error())}
	}
	var ue interface{ Unwrap() error }
	msg := err.Error()
	if errors.As(err, &ue) && ue.Unwrap() != nil {
		msg = ue.Unwrap().Error() // without the URL's query, which could carry a key
	}
	return &Error{Kind: KindNetwork, Msg: redact.String(msg)}
}

func (c *Client) statusError(code int, body []byte) error {
	kind := KindHTTP
	switch {
	case code == http.StatusTooManyRequests:
		kind = KindRateLimit
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		kind = KindAuth
	case code >= 300 && code < 500:
		kind = KindEndpoint // not a chat-completions endpoint (404, 405, a redirect loop...)
	}
	snippet := strings.TrimSpace(string(body))
	if len(snippet) > 200 {
		snippet = snippet[:200] + "…"
	}
	return &Error{Kind: kind, Status: code, Msg: redact.String(snippet)}
}

func retryAfter(r *http.Response) time.Duration {
	s, err := strconv.Atoi(strings.TrimSpace(r.Header.Get("Retry-After")))
	if err != nil || s < 0 {
		return 0
	}
	return min(time.Duration(s)*time.Second, 60*time.Second)
}

type wireResponse struct {
	Choices []struct {
		Message *struct {
			Content *string `json:"content"`
		} `json:"message"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct { // raw: a figure no int64 holds must not make the reply unreadable
		PromptTokens     json.RawMessage `json:"prompt_tokens"`
		CompletionTokens json.RawMessage `json:"completion_tokens"`
	} `json:"usage"`
	Error any `json:"error"`
}

func decode(raw []byte) (*Response, error) {
	var w wireResponse
	if err := json.Unmarshal(raw, &w); err != nil {
		return nil, fmt.Errorf("reply is not JSON: %v", err)
	}
	if w.Error != nil {
		return nil, fmt.Errorf("reply carries an error: %v", w.Error)
	}
	if len(w.Choices) == 0 || w.Choices[0].Message == nil {
		return nil, errors.New("reply has no choices[0].message")
	}
	r := &Response{}
	if p := w.Choices[0].Message.Content; p != nil {
		r.Content = *p
	}
	if p := w.Choices[0].FinishReason; p != nil {
		r.FinishReason = *p
	}
	if w.Usage != nil {
		var warnIn, warnOut string
		r.TokensIn, warnIn = tokenCount("prompt_tokens", w.Usage.PromptTokens)
		r.TokensOut, warnOut = tokenCount("completion_tokens", w.Usage.CompletionTokens)
		r.Warning = strings.TrimSpace(warnIn + " " + warnOut)
	}
	return r, nil
}

// maxTokens bounds a plausible usage figure: no request or answer comes
// near it, and sums of such figures cannot wrap.
const maxTokens = 1 << 32

// tokenCount reads one usage figure: nil when the server gave none, nil and
// a warning when it gave no plausible count (negative, fractional, absurd,
// not a number), so that no sum includes it.
func tokenCount(name string, raw json.RawMessage) (*int64, string) {
	text := string(raw)
	if text == "" || text == "null" {
		return nil, ""
	}
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil || n < 0 || n > maxTokens {
		if len(text) > 40 {
			text = text[:40] + "…"
		}
		return nil, fmt.Sprintf("usage.%s = %s is no token count; recorded as unknown.", name, text)
	}
	return &n, ""
}
