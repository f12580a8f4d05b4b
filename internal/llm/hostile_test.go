package llm_test

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/solbehave/solbehave/internal/llm"
	"github.com/solbehave/solbehave/internal/llm/llmtest"
	"github.com/solbehave/solbehave/internal/redact"
	"github.com/solbehave/solbehave/schemas"
)

// TestRedirectToAnotherPortKeepsTheKey: the endpoint redirects to another
// port of the same host; the client does not follow with the Authorization
// header (it does not follow at all), and says why.
func TestRedirectToAnotherPortKeepsTheKey(t *testing.T) {
	var sawKey atomic.Bool
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" {
			sawKey.Store(true)
		}
		w.Write([]byte(`{"choices":[{"message":{"content":"x"},"finish_reason":"stop"}]}`))
	}))
	defer other.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer srv.Close()
	c := llm.New(llm.Options{BaseURL: srv.URL + "/v1", Model: "m", APIKey: "sk-redirect-secret", Retries: 3, Backoff: time.Millisecond})
	_, err := c.Complete(context.Background(), request("a"))
	var e *llm.Error
	if !errors.As(err, &e) || e.Kind != llm.KindEndpoint || e.Attempts != 1 {
		t.Fatalf("want one endpoint error, got %v", err)
	}
	if sawKey.Load() {
		t.Fatal("the Authorization header reached another origin")
	}
}

// TestEchoedKeyStaysOut: a server that echoes the key (raw and base64) in
// the reply and the finish reason: the response and the cache hold neither.
func TestEchoedKeyStaysOut(t *testing.T) {
	const key = "sk-echo/secret+42"
	b64 := base64.StdEncoding.EncodeToString([]byte(key))
	s := llmtest.New(t, func(n int, r llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Content: "contract A {} // " + key + " " + b64, FinishReason: "stop " + r.Auth}
	})
	cache := t.TempDir()
	c := client(s, llm.Options{APIKey: key, CacheDir: cache})
	resp, err := c.Complete(context.Background(), request("a"))
	if err != nil {
		t.Fatal(err)
	}
	text := resp.Content + resp.FinishReason
	filepath.Walk(cache, func(p string, info os.FileInfo, _ error) error {
		b, _ := os.ReadFile(p)
		text += string(b)
		return nil
	})
	if leaked := redact.FormsIn(text, key); len(leaked) > 0 {
		t.Fatalf("the key (%q) reached the response or the cache: %s", leaked, text)
	}
	if !strings.Contains(resp.Content, "contract A {}") {
		t.Fatalf("the reply itself was lost: %q", resp.Content)
	}
}

// TestEchoedHeaderInOtherEncodingsStaysOut: a server that echoes the whole
// Authorization header as base64 (off the key's alignment) and as hex got
// the key stored in the reply and the cache; each such form is masked now.
func TestEchoedHeaderInOtherEncodingsStaysOut(t *testing.T) {
	const key = "sk-echo/secret+42xyz"
	var echoed []string
	s := llmtest.New(t, func(n int, r llmtest.Request) llmtest.Reply {
		a := []byte(r.Auth)
		echoed = []string{base64.StdEncoding.EncodeToString(a), base64.StdEncoding.EncodeToString(append([]byte("x"), a...)),
			base64.URLEncoding.EncodeToString(append([]byte("Authorization: "), a...)), hex.EncodeToString(a),
			strings.ToUpper(hex.EncodeToString(a)), url.QueryEscape(r.Auth)}
		return llmtest.Reply{Content: "contract A {} // " + strings.Join(echoed, " "), FinishReason: "stop"}
	})
	cache := t.TempDir()
	resp, err := client(s, llm.Options{APIKey: key, CacheDir: cache}).Complete(context.Background(), request("a"))
	if err != nil {
		t.Fatal(err)
	}
	text := resp.Content
	filepath.Walk(cache, func(p string, info os.FileInfo, _ error) error {
		b, _ := os.ReadFile(p)
		text += string(b)
		return nil
	})
	for _, e := range echoed {
		if middle := e[len(e)/2-6 : len(e)/2+6]; strings.Contains(text, middle) {
			t.Errorf("the echoed header %s reached the reply or the cache", e)
		}
	}
}

// TestWrongKeyIsNotRetried: 401 is auth, asked once.
func TestWrongKeyIsNotRetried(t *testing.T) {
	s := llmtest.New(t, func(n int, r llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Status: 401, Body: `{"error":"invalid api key"}`}
	})
	_, err := client(s, llm.Options{Retries: 4}).Complete(context.Background(), request("a"))
	var e *llm.Error
	if !errors.As(err, &e) || e.Kind != llm.KindAuth || e.Retriable() || s.Count() != 1 {
		t.Fatalf("want one auth error after 1 request, got %v after %d", err, s.Count())
	}
}

// TestDeadlineBoundsA429Loop: Retry-After answers forever cost the request's
// deadline, not Retries × Retry-After.
func TestDeadlineBoundsA429Loop(t *testing.T) {
	s := llmtest.New(t, func(n int, r llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Status: 429, Body: "slow down", RetryAfter: "1"}
	})
	_, err := client(s, llm.Options{Retries: 100, Deadline: 1500 * time.Millisecond}).Complete(context.Background(), request("a"))
	var e *llm.Error
	if !errors.As(err, &e) || e.Kind != llm.KindTimeout || !strings.Contains(e.Msg, "deadline") || s.Count() > 3 {
		t.Fatalf("want a timeout naming the deadline after at most 3 requests, got %v after %d", err, s.Count())
	}
}

func ptr(n int64) *int64 { return &n }

// TestImplausibleUsageIsUnknown: usage figures that are no token count
// (negative, -2^63, fractional, beyond any context, quoted, past int64) are
// recorded as unknown (NULL) with a warning naming the figure, from the
// server and from the cache alike, and make a total unknown instead of
// wrapping it; plausible ones are kept and summed. None makes the reply
// unreadable.
func TestImplausibleUsageIsUnknown(t *testing.T) {
	bad := []string{"-5", "-9223372036854775808", "2.5", "5000000000", `"12"`, "1e400", "18446744073709551615"}
	s := llmtest.New(t, func(n int, r llmtest.Request) llmtest.Reply {
		in := "10"
		if figure, ok := strings.CutPrefix(r.Last(), "bad "); ok {
			in = figure
		}
		return llmtest.Reply{Body: `{"choices":[{"message":{"content":"ok"},"finish_reason":"stop"}],` +
			`"usage":{"prompt_tokens":` + in + `,"completion_tokens":3}}`}
	})
	c := client(s, llm.Options{CacheDir: t.TempDir()})
	good := llm.CallRow("C", "openai:m", 0, "f", request("good"), complete(t, c, request("good")), nil)
	for _, figure := range bad {
		req := request("bad " + figure)
		for _, from := range []string{"server", "cache"} {
			resp := complete(t, c, req)
			row := llm.CallRow("C", "openai:m", 0, "f", req, resp, nil)
			if resp.Cached != (from == "cache") {
				t.Fatalf("prompt_tokens %s: cached %v, want it from the %s", figure, resp.Cached, from)
			}
			if row.TokensIn != nil || !strings.Contains(row.Warning, "prompt_tokens = "+figure[:min(len(figure), 40)]) {
				t.Errorf("prompt_tokens %s from the %s: recorded %v, warning %q", figure, from, row.TokensIn, row.Warning)
			}
			if in, out := llm.SumTokens([]schemas.LLMCall{good, row}); in != nil || out != nil {
				t.Errorf("prompt_tokens %s was summed: %d", figure, *in)
			}
		}
	}
	if in, out := llm.SumTokens([]schemas.LLMCall{good, good}); in == nil || *in != 20 || *out != 6 || good.Warning != "" {
		t.Errorf("plausible figures: sum %v %v, warning %q", in, out, good.Warning)
	}
}

// complete sends req and fails the test on an error.
func complete(t *testing.T, c *llm.Client, req llm.Request) *llm.Response {
	t.Helper()
	resp, err := c.Complete(context.Background(), req)
	if err != nil {
		t.Fatalf("%s: %v", req.Messages[0].Content, err)
	}
	return resp
}
